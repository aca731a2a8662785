"""agent/service.py (0.1.48), reduced to what touches the browser: __init__'s browser/context
construction, step(), multi_act(), _make_history_item() and run(), ported from sections 1.9 and
1.13. The LLM is any object with ``async ainvoke(messages) -> obj.content`` (JSON AgentOutput).
"""
import asyncio
import json
from datetime import datetime

from browser_use.agent.views import ActionResult
from browser_use.browser.browser import Browser
from browser_use.browser.context import BrowserContext
from browser_use.dom.history_tree_processor.service import HistoryTreeProcessor

DEFAULT_INCLUDE_ATTRIBUTES = ['title', 'type', 'name', 'role', 'aria-label', 'placeholder', 'value', 'alt', 'aria-expanded', 'data-date-format']


class Agent:
    def __init__(self, task, llm, browser=None, browser_context=None, controller=None, max_actions_per_step=10,
                 include_attributes=DEFAULT_INCLUDE_ATTRIBUTES, page_extraction_llm=None, sensitive_data=None,
                 register_new_step_callback=None):
        self.task = task
        self.llm = llm
        self.controller = controller
        self.include_attributes = include_attributes
        self.page_extraction_llm = page_extraction_llm or llm
        self.sensitive_data = sensitive_data
        self.register_new_step_callback = register_new_step_callback
        self.injected_browser = browser is not None
        self.injected_browser_context = browser_context is not None
        if browser_context:
            self.browser = browser
            self.browser_context = browser_context
        else:
            self.browser = browser or Browser()
            self.browser.config.new_context_config.disable_security = self.browser.config.disable_security
            # Name lookup in this module's globals: the shim routes it for an ExtensionBrowser.
            self.browser_context = BrowserContext(browser=self.browser, config=self.browser.config.new_context_config)
        if self.browser_context.config.allowed_domains is None and sensitive_data:
            pass  # 0.1.48 logs a security warning here
        self.ActionModel = self.controller.registry.create_action_model()
        self.n_steps = 1
        self.last_result = []
        self.history = []  # [(model_output, results, interacted_elements, state)]
        self.prompts = []
        self.stopped = False
        self.consecutive_failures = 0

    def stop(self):
        self.stopped = True

    def _state_message(self, state, step_info):
        elements_text = state.element_tree.clickable_elements_to_string(include_attributes=self.include_attributes)
        if elements_text != '':
            if (state.pixels_above or 0) > 0:
                elements_text = f'... {state.pixels_above} pixels above - scroll or extract content to see more ...\n{elements_text}'
            else:
                elements_text = f'[Start of page]\n{elements_text}'
            if (state.pixels_below or 0) > 0:
                elements_text = f'{elements_text}\n... {state.pixels_below} pixels below - scroll or extract content to see more ...'
            else:
                elements_text = f'{elements_text}\n[End of page]'
        else:
            elements_text = 'empty page'
        text = (
            '\n[Task history memory ends]\n[Current state starts here]\n'
            'The following is one-time information - if you need to remember it write it to memory:\n'
            f'Current url: {state.url}\nAvailable tabs:\n{state.tabs}\n'
            f'Interactive elements from top layer of the current page inside the viewport:\n{elements_text}\n'
            f'Current step: {step_info[0]}/{step_info[1]}'
            f'Current date and time: {datetime.now().strftime("%Y-%m-%d %H:%M")}'
        )
        for i, r in enumerate(self.last_result):
            if r.extracted_content:
                text += f'\nAction result {i + 1}/{len(self.last_result)}: {r.extracted_content}'
            if r.error:
                text += f'\nAction error {i + 1}/{len(self.last_result)}: ...{r.error.splitlines()[-1]}'
        return text

    async def step(self, max_steps):
        state = await self.browser_context.get_state(cache_clickable_elements_hashes=True)
        current_page = await self.browser_context.get_current_page()
        self.ActionModel = self.controller.registry.create_action_model(page=current_page)
        page_actions = self.controller.registry.get_prompt_description(current_page)
        message = self._state_message(state, (self.n_steps, max_steps))
        if page_actions:
            message += f'\nFor this page, these additional actions are available:\n{page_actions}'
        self.prompts.append(message)
        response = await self.llm.ainvoke([{'role': 'system', 'content': self.task}, {'role': 'user', 'content': message}])
        parsed = json.loads(response.content)
        actions = [self.ActionModel(**a) for a in parsed['action']][:10]
        try:
            result = await self.multi_act(actions)
            self.consecutive_failures = 0
        except Exception as e:  # 0.1.48 _handle_step_error: the error becomes the step's result
            result = [ActionResult(error=str(e), include_in_memory=True)]
            self.consecutive_failures += 1
        self.last_result = result
        interacted = [HistoryTreeProcessor.convert_dom_element_to_history_element(state.selector_map[a.get_index()])
                      if a.get_index() is not None and a.get_index() in state.selector_map else None for a in actions]
        self.history.append((parsed, result, interacted, state))
        if self.register_new_step_callback:
            self.register_new_step_callback(state, parsed, self.n_steps)
        self.n_steps += 1

    async def multi_act(self, actions, check_for_new_elements=True):
        results = []
        cached_selector_map = await self.browser_context.get_selector_map()
        cached_path_hashes = set(e.hash.branch_path_hash for e in cached_selector_map.values())
        await self.browser_context.remove_highlights()
        for i, action in enumerate(actions):
            if action.get_index() is not None and i != 0:
                new_state = await self.browser_context.get_state(cache_clickable_elements_hashes=False)
                new_selector_map = new_state.selector_map
                orig_target = cached_selector_map.get(action.get_index())
                orig_target_hash = orig_target.hash.branch_path_hash if orig_target else None
                new_target = new_selector_map.get(action.get_index())
                new_target_hash = new_target.hash.branch_path_hash if new_target else None
                if orig_target_hash != new_target_hash:
                    msg = f'Element index changed after action {i} / {len(actions)}, because page changed.'
                    results.append(ActionResult(extracted_content=msg, include_in_memory=True))
                    break
                new_path_hashes = set(e.hash.branch_path_hash for e in new_selector_map.values())
                if check_for_new_elements and not new_path_hashes.issubset(cached_path_hashes):
                    msg = f'Something new appeared after action {i} / {len(actions)}'
                    results.append(ActionResult(extracted_content=msg, include_in_memory=True))
                    break
            result = await self.controller.act(action, self.browser_context, self.page_extraction_llm, self.sensitive_data, None, context=None)
            results.append(result)
            if results[-1].is_done or results[-1].error or i == len(actions) - 1:
                break
            await asyncio.sleep(self.browser_context.config.wait_between_actions)
        return results

    async def run(self, max_steps=100):
        try:
            for _ in range(max_steps):
                if self.stopped or self.consecutive_failures >= 3:
                    break
                await self.step(max_steps)
                if self.last_result and self.last_result[-1].is_done:
                    break
            return self.history
        finally:
            await self.close()

    def final_result(self):
        if self.history and self.history[-1][1] and self.history[-1][1][-1].is_done:
            return self.history[-1][1][-1].extracted_content
        return None

    async def close(self):
        if self.browser_context and not self.injected_browser_context:
            await self.browser_context.close()
        if self.browser and not self.injected_browser:
            await self.browser.close()
