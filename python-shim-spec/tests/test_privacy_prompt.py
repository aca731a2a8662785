"""What the model reads of a page through the shim never holds a card number: the prompt's
"Current url" after a GET form put one in the URL, and a number split over inline elements, which
browser_use prints as separate text nodes. The extension masks both (shared/redaction.ts,
content/snapshot/privacy.ts); this checks the prompt the real browser_use builds from them."""
import re
import unittest

from tests.real_agent_support import V40, RealAgentModule, chat_openai, done
from tests.scripted_llm import Script, ScriptedOpenAIServer

M = RealAgentModule()
setUpModule, tearDownModule = M.hooks()
CLICK = 'click_element' if V40 else 'click_element_by_index'

# Each card's four groups with up to 14 other characters between them (+, %20, a span's edges).
CARDS = [re.compile('[^0-9]{0,14}'.join(re.findall(r'\d{4}', c))) for c in ('4111111111111111', '4000056655665556')]


async def run(agent):
    try:
        return await agent.run(max_steps=5)
    finally:
        await agent.browser_context.close()
        if agent.browser is not None:
            await agent.browser.close()


class PromptPrivacy(unittest.TestCase):
    def test_the_prompt_shows_neither_a_card_number_in_the_url_nor_one_split_over_spans(self):
        from browser_use import Agent

        from browser_use_ext import ExtensionController

        # The page's own GET form puts the card number in the URL (the model never typed it).
        script = Script([
            [{'go_to_url': {'url': M.h.url('privacy.html')}}],
            lambda s: [{CLICK: {'index': s.index_of('Pay')}}],
            done('looked'),
        ])
        with ScriptedOpenAIServer(script) as server:
            agent = Agent('Look at the page', chat_openai(server), browser=M.browser(), controller=ExtensionController(), use_vision=False)
            history = M.run(run(agent))
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        seen = script.of_kind('agent')[-1]
        self.assertEqual(seen.page_url, M.h.url('privacy.html') + '?card=[redacted:payment_card]')
        self.assertIn('Paid with', seen.state_text)
        self.assertIn('1234-5678-9012-3456', seen.state_text)  # an order number is no card
        for request in script.requests:
            for card in CARDS:
                self.assertIsNone(card.search(request.raw), f'{request.kind} request shows a card number')


if __name__ == '__main__':
    unittest.main()
