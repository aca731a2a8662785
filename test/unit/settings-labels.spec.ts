// Words the reader knows: a message that names a setting uses the label the person sees in Settings.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { SETTINGS_LABELS } from '../../extension/src/shared/settings-labels';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('Settings labels named in messages', () => {
  it('each label stands in the Settings page exactly', () => {
    const page = fs.readFileSync(path.join(root, 'extension/src/options/options.html'), 'utf8');
    for (const label of Object.values(SETTINGS_LABELS)) expect(page, label).to.contain(`>${label}</label>`);
  });
});
