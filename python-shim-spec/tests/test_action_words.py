"""serve's step log in a person's words (action_words.py): what each browser_use action did, naming the
element by what the person sees of it, and never a secret."""
import unittest
from types import SimpleNamespace

from browser_use_ext.action_words import DESCRIPTION_MAX, describe, history_element_words
from browser_use_ext.serve import step_details


class Node:
    """A DOMElementNode as far as the words need it."""

    def __init__(self, xpath, text):
        self.xpath = xpath
        self.text = text

    def get_all_text_till_next_clickable_element(self, max_depth=-1):
        return self.text


def element(tag, xpath, attributes, index):
    return SimpleNamespace(tag_name=tag, xpath=xpath, attributes=attributes, highlight_index=index)


class Words(unittest.TestCase):
    def test_each_action_in_plain_words(self):
        self.assertEqual(describe('click_element_by_index', {'index': 3}, "'Add to cart'", False), "Click 'Add to cart'")
        self.assertEqual(describe('input_text', {'index': 2, 'text': 'stapler'}, "'Search'", False), "Type 'stapler' into 'Search'")
        self.assertEqual(describe('go_to_url', {'url': 'https://example.com/?token=abc#x'}), 'Open example.com')
        self.assertEqual(describe('go_to_url', {'url': 'https://shop.test/cart'}), 'Open shop.test/cart')
        self.assertEqual(describe('scroll_down', {'amount': None}), 'Scroll down')
        self.assertEqual(describe('done', {'text': 'ok', 'success': True}), 'Done')
        self.assertEqual(describe('done', {'text': 'no', 'success': False}), 'Give up: the goal was not reached')
        self.assertEqual(describe('select_dropdown_option', {'index': 4, 'text': 'France'}, "'Country'"), "Choose 'France' in 'Country'")
        self.assertEqual(describe('my_custom_action', {}), 'My custom action')

    def test_never_a_secret(self):
        self.assertEqual(describe('input_text', {'index': 2, 'text': 'hunter2'}, "'Password'", True), "Type into 'Password'")
        self.assertEqual(describe('input_text', {'index': 2, 'text': 'hunter2'}), 'Type into element 2', 'unknown field: not named')
        self.assertEqual(describe('input_text', {'index': 2, 'text': '<secret>x_password</secret>'}, "'Password'", False),
                         "Type the secret 'x_password' into 'Password'")
        words = describe('input_text', {'index': 2, 'text': 'my s3cret pw'}, "'Notes'", False, {'pw': 's3cret'})
        self.assertNotIn('s3cret', words)
        self.assertNotIn('s3cret', describe('search_google', {'query': 'who is s3cret'}, secrets={'pw': 's3cret'}))

    def test_capped(self):
        self.assertLessEqual(len(describe('input_text', {'index': 1, 'text': 'y' * 5000}, "'" + 'x' * 500 + "'", False)), DESCRIPTION_MAX)
        self.assertLessEqual(len(describe('x' * 1000, {})), DESCRIPTION_MAX)

    def test_the_element_by_its_visible_text_else_its_label(self):
        button = element('button', '/html/body/button', {}, 3)
        self.assertEqual(history_element_words(button, Node('/html/body/button', ' Add to\ncart ')), ("'Add to cart'", False))
        search = element('input', '/html/body/input', {'type': 'search', 'placeholder': 'Search'}, 2)
        self.assertEqual(history_element_words(search, None), ("'Search'", False))
        password = element('input', '/html/body/form/input', {'type': 'password', 'value': '[redacted:password]'}, 5)
        self.assertEqual(history_element_words(password, None), ('the field [5]', True))
        moved = Node('/html/body/div', 'Another element now at index 3')
        self.assertEqual(history_element_words(button, moved), ('the button [3]', False), 'a node of another state is not used')

    def test_step_details_carry_the_description(self):
        class Action:
            def __init__(self, d):
                self.d = d

            def model_dump(self, exclude_unset=False):
                return self.d

        search = element('input', '/html/body/input', {'type': 'search', 'aria-label': 'Search products'}, 2)
        item = SimpleNamespace(
            state=SimpleNamespace(url='https://shop.test/', interacted_element=[search]),
            model_output=SimpleNamespace(current_state=None, action=[Action({'input_text': {'index': 2, 'text': 'stapler'}})]),
            result=[SimpleNamespace(extracted_content='Typed', error=None, is_done=False)],
        )
        agent = SimpleNamespace(state=SimpleNamespace(history=SimpleNamespace(history=[item])),
                                browser_context=SimpleNamespace(session=SimpleNamespace(cached_state=SimpleNamespace(selector_map={}))))
        self.assertEqual(step_details(agent)['actions'][0]['description'], "Type 'stapler' into 'Search products'")


if __name__ == '__main__':
    unittest.main()
