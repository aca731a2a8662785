"""browser_use 0.1.48 controller/registry (service.py + views.py) without pydantic.

Same behaviour the Agent relies on: action(description, param_model, domains, page_filter)
returning the original function, execute_action injecting ``browser``/``page_extraction_llm``/
``available_file_paths``/``context``/``has_sensitive_data`` by parameter name, <secret> placeholders,
errors wrapped as RuntimeError('Error executing action <name>: <e>'), create_action_model and
get_prompt_description with domain/page filters.
"""
from __future__ import annotations

import asyncio
import fnmatch
import functools
import inspect
import re
from typing import Any, Callable, Optional
from urllib.parse import urlparse

from .models import Model, create_model


class ActionModel(Model):
    """One optional field per registered action (built by Registry.create_action_model)."""

    def get_index(self) -> Optional[int]:
        for param in self.model_dump(exclude_unset=True).values():
            if isinstance(param, dict) and 'index' in param:
                return param['index']
        return None

    def set_index(self, index: int) -> None:
        action_data = self.model_dump(exclude_unset=True)
        action_name = next(iter(action_data.keys()))
        action_params = getattr(self, action_name)
        if hasattr(action_params, 'index'):
            action_params.index = index


class RegisteredAction:
    def __init__(
        self,
        name: str,
        description: str,
        function: Callable,
        param_model: type,
        domains: Optional[list[str]] = None,
        page_filter: Optional[Callable[[Any], bool]] = None,
    ) -> None:
        self.name = name
        self.description = description
        self.function = function
        self.param_model = param_model
        self.domains = domains
        self.page_filter = page_filter

    def prompt_description(self) -> str:
        skip_keys = ['title']
        s = f'{self.description}: \n'
        s += '{' + str(self.name) + ': '
        s += str(
            {
                k: {sub_k: sub_v for sub_k, sub_v in v.items() if sub_k not in skip_keys}
                for k, v in self.param_model.model_json_schema()['properties'].items()
            }
        )
        s += '}'
        return s


class ActionRegistry:
    def __init__(self) -> None:
        self.actions: dict[str, RegisteredAction] = {}

    @staticmethod
    def _match_domains(domains: Optional[list[str]], url: str) -> bool:
        if domains is None or not url:
            return True
        try:
            domain = urlparse(url).netloc
            if ':' in domain:
                domain = domain.split(':')[0]
            return any(fnmatch.fnmatch(domain, pattern) for pattern in domains)
        except Exception:
            return False

    @staticmethod
    def _match_page_filter(page_filter: Optional[Callable[[Any], bool]], page: Any) -> bool:
        if page_filter is None:
            return True
        return page_filter(page)

    def get_prompt_description(self, page: Any = None) -> str:
        if page is None:
            return '\n'.join(a.prompt_description() for a in self.actions.values() if a.page_filter is None and a.domains is None)
        filtered = [a for a in self.actions.values() if (a.domains is not None or a.page_filter is not None)
                    and self._match_domains(a.domains, page.url) and self._match_page_filter(a.page_filter, page)]
        return '\n'.join(a.prompt_description() for a in filtered)


_INJECTED = ('browser', 'page_extraction_llm', 'available_file_paths')


class Registry:
    def __init__(self, exclude_actions: Optional[list[str]] = None) -> None:
        self.registry = ActionRegistry()
        self.exclude_actions = exclude_actions if exclude_actions is not None else []

    def _create_param_model(self, function: Callable) -> type:
        sig = inspect.signature(function)
        hints = {}
        try:
            import typing
            hints = typing.get_type_hints(function)
        except Exception:
            pass
        params = {
            name: (
                hints.get(name, param.annotation if param.annotation is not inspect.Parameter.empty else Any),
                ... if param.default is inspect.Parameter.empty else param.default,
            )
            for name, param in sig.parameters.items()
            if name not in _INJECTED
        }
        return create_model(f'{function.__name__}_parameters', __base__=ActionModel, **params)

    def action(
        self,
        description: str,
        param_model: Optional[type] = None,
        domains: Optional[list[str]] = None,
        page_filter: Optional[Callable[[Any], bool]] = None,
    ) -> Callable:
        def decorator(func: Callable) -> Callable:
            if func.__name__ in self.exclude_actions:
                return func
            actual_param_model = param_model or self._create_param_model(func)
            if not inspect.iscoroutinefunction(func):
                @functools.wraps(func)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    return await asyncio.to_thread(func, *args, **kwargs)
                wrapped = async_wrapper
            else:
                wrapped = func
            self.registry.actions[func.__name__] = RegisteredAction(
                func.__name__, description, wrapped, actual_param_model, domains, page_filter
            )
            return func
        return decorator

    async def execute_action(
        self,
        action_name: str,
        params: dict,
        browser: Any = None,
        page_extraction_llm: Any = None,
        sensitive_data: Optional[dict[str, str]] = None,
        available_file_paths: Optional[list[str]] = None,
        context: Any = None,
    ) -> Any:
        if action_name not in self.registry.actions:
            raise ValueError(f'Action {action_name} not found')
        action = self.registry.actions[action_name]
        try:
            try:
                validated_params = action.param_model(**params)
            except Exception as e:
                raise ValueError(f'Invalid parameters {params} for action {action_name}: {type(e)}: {e}') from e
            sig = inspect.signature(action.function)
            parameters = list(sig.parameters.values())
            first = parameters[0].annotation if parameters else None
            is_pydantic = isinstance(first, type) and _is_model_class(first)
            parameter_names = [p.name for p in parameters]
            if sensitive_data:
                validated_params = self._replace_sensitive_data(validated_params, sensitive_data)
            if 'browser' in parameter_names and not browser:
                raise ValueError(f'Action {action_name} requires browser but none provided.')
            if 'page_extraction_llm' in parameter_names and not page_extraction_llm:
                raise ValueError(f'Action {action_name} requires page_extraction_llm but none provided.')
            if 'available_file_paths' in parameter_names and not available_file_paths:
                raise ValueError(f'Action {action_name} requires available_file_paths but none provided.')
            if 'context' in parameter_names and not context:
                raise ValueError(f'Action {action_name} requires context but none provided.')
            extra_args: dict[str, Any] = {}
            if 'context' in parameter_names:
                extra_args['context'] = context
            if 'browser' in parameter_names:
                extra_args['browser'] = browser
            if 'page_extraction_llm' in parameter_names:
                extra_args['page_extraction_llm'] = page_extraction_llm
            if 'available_file_paths' in parameter_names:
                extra_args['available_file_paths'] = available_file_paths
            if action_name == 'input_text' and sensitive_data:
                extra_args['has_sensitive_data'] = True
            if is_pydantic:
                return await action.function(validated_params, **extra_args)
            return await action.function(**validated_params.model_dump(), **extra_args)
        except Exception as e:
            raise RuntimeError(f'Error executing action {action_name}: {str(e)}') from e

    def _replace_sensitive_data(self, params: Any, sensitive_data: dict[str, str]) -> Any:
        secret_pattern = re.compile(r'<secret>(.*?)</secret>')

        def replace_secrets(value: Any) -> Any:
            if isinstance(value, str):
                for placeholder in secret_pattern.findall(value):
                    if placeholder in sensitive_data:
                        value = value.replace(f'<secret>{placeholder}</secret>', sensitive_data[placeholder])
                return value
            if isinstance(value, dict):
                return {k: replace_secrets(v) for k, v in value.items()}
            if isinstance(value, list):
                return [replace_secrets(v) for v in value]
            return value

        return type(params)(**replace_secrets(params.model_dump()))

    def create_action_model(self, include_actions: Optional[list[str]] = None, page: Any = None) -> type:
        available: dict[str, RegisteredAction] = {}
        for name, action in self.registry.actions.items():
            if include_actions is not None and name not in include_actions:
                continue
            if page is None:
                if action.page_filter is None and action.domains is None:
                    available[name] = action
                continue
            domain_is_allowed = self.registry._match_domains(action.domains, page.url)
            page_is_allowed = self.registry._match_page_filter(action.page_filter, page)
            if domain_is_allowed and page_is_allowed:
                available[name] = action
        fields = {name: (Optional[action.param_model], None) for name, action in available.items()}
        model = create_model('ActionModel', __base__=ActionModel, **fields)
        for name, action in available.items():
            model.model_fields[name].description = action.description
        return model

    def get_prompt_description(self, page: Any = None) -> str:
        return self.registry.get_prompt_description(page=page)


def _is_model_class(tp: type) -> bool:
    if issubclass(tp, Model):
        return True
    try:
        from pydantic import BaseModel  # type: ignore
        return issubclass(tp, BaseModel)
    except Exception:
        return False
