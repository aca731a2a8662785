"""The LLM for ``python -m browser_use_ext serve``: chosen by flags or environment, built with the
LangChain chat classes browser_use 0.1.4x already depends on, and checked at start-up.

Providers: ``openai`` (also any OpenAI-compatible server with ``--base-url``: vLLM, LM Studio,
llama.cpp, OpenRouter, ...), ``anthropic``, ``google``, ``ollama``. Without ``--llm`` the provider
is the first whose key is set (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY), or ollama when
BROWSER_USE_EXT_LLM_BASE_URL / OLLAMA_HOST points at one.
"""
from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any, Optional

PROVIDERS = ('openai', 'anthropic', 'google', 'ollama')

_PACKAGES = {
    'openai': 'langchain-openai',
    'anthropic': 'langchain-anthropic',
    'google': 'langchain-google-genai',
    'ollama': 'langchain-ollama',
}
_KEY_ENV = {'openai': 'OPENAI_API_KEY', 'anthropic': 'ANTHROPIC_API_KEY', 'google': 'GOOGLE_API_KEY'}
_DEFAULT_MODEL = {'openai': 'gpt-4o', 'anthropic': 'claude-3-5-sonnet-latest', 'google': 'gemini-2.0-flash', 'ollama': 'qwen2.5:7b'}


class LLMSetupError(Exception):
    """What is missing to run an LLM, worded as what to do."""


@dataclass
class LLMChoice:
    provider: str
    model: str
    base_url: Optional[str]
    api_key: Optional[str]

    def describe(self) -> str:
        return f'{self.provider} model {self.model}' + (f' at {self.base_url}' if self.base_url else '')


def choose(
    provider: Optional[str] = None,
    model: Optional[str] = None,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
    env: Optional[dict] = None,
) -> LLMChoice:
    env = dict(os.environ if env is None else env)
    provider = (provider or env.get('BROWSER_USE_EXT_LLM') or '').strip().lower()
    base_url = base_url or env.get('BROWSER_USE_EXT_LLM_BASE_URL') or None
    if not provider:
        if env.get('OPENAI_API_KEY') or env.get('OPENAI_BASE_URL'):
            provider = 'openai'
        elif env.get('ANTHROPIC_API_KEY'):
            provider = 'anthropic'
        elif env.get('GOOGLE_API_KEY'):
            provider = 'google'
        elif env.get('OLLAMA_HOST'):
            provider = 'ollama'
        else:
            raise LLMSetupError(
                'No LLM configured. Pick one: --llm openai --model gpt-4o (with OPENAI_API_KEY), --llm anthropic (ANTHROPIC_API_KEY), '
                '--llm google (GOOGLE_API_KEY), --llm ollama --model qwen2.5:7b (a local Ollama), or --llm openai --base-url '
                'http://host:port/v1 '
                'for any OpenAI-compatible server.')
    if provider not in PROVIDERS:
        raise LLMSetupError(f'Unknown --llm {provider!r}: use one of {", ".join(PROVIDERS)}.')
    if provider == 'openai':
        base_url = base_url or env.get('OPENAI_BASE_URL') or None
    if provider == 'ollama':
        base_url = base_url or env.get('OLLAMA_HOST') or 'http://localhost:11434'
    key = api_key or env.get('BROWSER_USE_EXT_LLM_API_KEY') or (env.get(_KEY_ENV[provider]) if provider in _KEY_ENV else None)
    if provider in _KEY_ENV and not key:
        if provider == 'openai' and base_url:
            key = 'not-needed'  # local OpenAI-compatible servers usually take any key; the client needs one
        else:
            raise LLMSetupError(f'The {provider} LLM needs an API key: set {_KEY_ENV[provider]} (or pass --api-key).')
    return LLMChoice(provider, model or env.get('BROWSER_USE_EXT_MODEL') or _DEFAULT_MODEL[provider], base_url, key)


def build(choice: LLMChoice) -> Any:
    """The LangChain chat model for a choice; says which package to install when it is missing."""
    try:
        if choice.provider == 'openai':
            from langchain_openai import ChatOpenAI  # type: ignore
            kwargs: dict[str, Any] = {'model': choice.model, 'api_key': choice.api_key, 'temperature': 0.0}
            if choice.base_url:
                kwargs['base_url'] = choice.base_url
            return ChatOpenAI(**kwargs)
        if choice.provider == 'anthropic':
            from langchain_anthropic import ChatAnthropic  # type: ignore
            return ChatAnthropic(model_name=choice.model, api_key=choice.api_key, temperature=0.0, timeout=100, stop=None)
        if choice.provider == 'google':
            from langchain_google_genai import ChatGoogleGenerativeAI  # type: ignore
            return ChatGoogleGenerativeAI(model=choice.model, google_api_key=choice.api_key, temperature=0.0)
        from langchain_ollama import ChatOllama  # type: ignore
        return ChatOllama(model=choice.model, base_url=choice.base_url, num_ctx=32000)
    except ImportError as e:
        raise LLMSetupError(
            f'The {choice.provider} LLM needs its LangChain package: pip install {_PACKAGES[choice.provider]} ({e}).'
        ) from e


async def check(llm: Any, choice: LLMChoice, timeout_s: float = 30.0) -> None:
    """Asks the question browser_use 0.1.48 asks before its first step (so the Agent skips its own
    blocking check): a wrong key, a down server or an unknown model fails here, at start-up."""
    from_lc = None
    try:
        from langchain_core.messages import HumanMessage  # type: ignore
        from_lc = [HumanMessage(content='What is the capital of France? Respond with a single word.')]
    except ImportError:
        pass
    try:
        response = await asyncio.wait_for(llm.ainvoke(from_lc or 'What is the capital of France? Respond with a single word.'), timeout_s)
    except asyncio.TimeoutError:
        raise LLMSetupError(
            f'The {choice.describe()} did not answer within {timeout_s:.0f} s. Is the server up and the model loaded?'
        ) from None
    except Exception as e:  # the client libraries raise their own types (auth, connection, not found)
        raise LLMSetupError(
            f'The {choice.describe()} is not usable: {type(e).__name__}: {str(e)[:300]}. Check the key, --base-url and --model.'
        ) from e
    if 'paris' not in str(getattr(response, 'content', response)).lower():
        raise LLMSetupError(f'The {choice.describe()} answered the start-up question wrongly '
                            f'({str(getattr(response, "content", response))[:100]!r}); it is unlikely to drive a browser. Pick a '
                            'stronger model.')
    try:
        llm._verified_api_keys = True  # browser_use's Agent skips its own (blocking) check then
    except Exception:
        pass
