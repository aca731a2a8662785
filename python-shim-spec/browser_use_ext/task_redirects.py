"""A person's redirect reaches a serve task's browser_use Agent at the model's next request, not steps later.

Why not simply ``Agent.add_new_task`` when the redirect arrives: browser_use 0.1.40-0.1.48 drops the last
human message after each model answer (it takes it for the step's state message), so a task added
mid-step is lost; and added only at a step's start (``on_step_start``), a redirect typed while a step
ran (the person reads step N while step N+1 already asks the model) waited for step N+2. So the Agent's
``get_next_action`` is wrapped: each model request first takes the waiting redirects (placed before the
step's state message, where browser_use's own history keeps them), and a redirect that arrives while the
model is still answering cancels that request and asks again with it: the answer to the old task would
only be undone by the next step.
"""
from __future__ import annotations

import asyncio
from typing import Any, Optional

# Re-asks within one step at most, so a person sending redirects in a burst cannot keep the model from answering.
MAX_REASKS = 3


class RedirectInbox:
    """The redirects of one task, waiting for the model's next request."""

    def __init__(self) -> None:
        self.pending: list[str] = []
        self._arrived: Optional[asyncio.Event] = None

    def _event(self) -> asyncio.Event:
        if self._arrived is None:
            self._arrived = asyncio.Event()
        return self._arrived

    def push(self, text: str) -> None:
        self.pending.append(text)
        self._event().set()

    @staticmethod
    def supports(agent: Any) -> bool:
        history = getattr(getattr(getattr(agent, '_message_manager', None), 'state', None), 'history', None)
        return callable(getattr(agent, 'get_next_action', None)) and isinstance(getattr(history, 'messages', None), list)

    def _inject(self, agent: Any, input_messages: list) -> list:
        """Adds the waiting redirects to the agent's history and to this request, before the state message."""
        texts, self.pending = self.pending, []
        if not texts:
            return input_messages
        manager = agent._message_manager
        messages = manager.state.history.messages
        out = list(input_messages)
        for text in texts:
            manager.add_new_task(text)
            added = messages.pop()
            messages.insert(max(0, len(messages) - 1), added)
            out.insert(max(0, len(out) - 1), added.message)
        return out

    def attach(self, agent: Any) -> bool:
        """Wraps agent.get_next_action; False when the agent is not browser_use's (the caller falls back to add_new_task)."""
        if not self.supports(agent):
            return False
        original = agent.get_next_action
        inbox = self

        async def get_next_action(input_messages: list, *args: Any, **kwargs: Any) -> Any:
            for _ in range(MAX_REASKS):
                input_messages = inbox._inject(agent, input_messages)
                arrived = inbox._event()
                arrived.clear()
                call = asyncio.ensure_future(original(input_messages, *args, **kwargs))
                waiter = asyncio.ensure_future(arrived.wait())
                try:
                    await asyncio.wait({call, waiter}, return_when=asyncio.FIRST_COMPLETED)
                except BaseException:
                    call.cancel()  # this request itself was cancelled (the person's Stop)
                    raise
                finally:
                    waiter.cancel()
                if call.done():
                    return call.result()
                # A redirect came while the model answered the old task: drop that answer, ask again with it.
                call.cancel()
                await asyncio.gather(call, return_exceptions=True)
            return await original(inbox._inject(agent, input_messages), *args, **kwargs)

        agent.get_next_action = get_next_action
        return True
