// Building ErrorInfo values. Kept apart from wire.ts so page-side code can use it without pulling
// in the validators (the content script runs in every frame of every page).
import type { ComponentOrigin, ErrorCode, ErrorInfo } from '../generated/protocol';

export function errorInfo(code: ErrorCode, message: string, origin: ComponentOrigin, details?: Record<string, unknown>): ErrorInfo {
  return details === undefined
    ? { error_code: code, message, component_origin: origin }
    : { error_code: code, message, details, component_origin: origin };
}
