"""A small stand-in for the pydantic features browser_use's Registry uses: param models with
typed fields, validation of LLM JSON, model_dump(exclude_unset), model_json_schema() (for the
prompt's action descriptions) and create_model(). Only used when pydantic is not installed.
"""
from __future__ import annotations

import typing
from typing import Any, Optional, Union, get_args, get_origin

_MISSING = object()


class ValidationError(ValueError):
    pass


class FieldInfo:
    def __init__(self, annotation: Any, default: Any = _MISSING, description: Optional[str] = None) -> None:
        self.annotation = annotation
        self.default = default
        self.description = description

    def is_required(self) -> bool:
        return self.default is _MISSING


def Field(default: Any = _MISSING, description: Optional[str] = None, **_: Any) -> Any:
    return FieldInfo(None, default, description)


def _is_optional(tp: Any) -> bool:
    return get_origin(tp) is Union and type(None) in get_args(tp)


def _coerce(name: str, tp: Any, value: Any) -> Any:
    if tp is Any or tp is None:
        return value
    origin = get_origin(tp)
    if origin is Union:
        if value is None and type(None) in get_args(tp):
            return None
        errors = []
        for arg in get_args(tp):
            if arg is type(None):
                continue
            try:
                return _coerce(name, arg, value)
            except ValidationError as e:
                errors.append(str(e))
        raise ValidationError('; '.join(errors))
    if origin in (list, typing.List):
        if not isinstance(value, list):
            raise ValidationError(f'{name}: Input should be a valid list')
        (inner,) = get_args(tp) or (Any,)
        return [_coerce(name, inner, v) for v in value]
    if origin in (dict, typing.Dict):
        if not isinstance(value, dict):
            raise ValidationError(f'{name}: Input should be a valid dictionary')
        return dict(value)
    if isinstance(tp, type) and issubclass(tp, Model):
        if isinstance(value, tp):
            return value
        if isinstance(value, dict):
            return tp(**value)
        raise ValidationError(f'{name}: Input should be a valid dictionary or instance of {tp.__name__}')
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ('true', 'false'):
            return value.lower() == 'true'
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise ValidationError(f'{name}: Input should be a valid boolean')
    if tp is int:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip('-').isdigit():
            return int(value)
        raise ValidationError(f'{name}: Input should be a valid integer')
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise ValidationError(f'{name}: Input should be a valid number')
    if tp is str:
        if isinstance(value, str):
            return value
        raise ValidationError(f'{name}: Input should be a valid string')
    return value


def _schema(tp: Any) -> dict:
    origin = get_origin(tp)
    if origin is Union:
        return {'anyOf': [_schema(a) for a in get_args(tp)]}
    if tp is type(None):
        return {'type': 'null'}
    if tp is int:
        return {'type': 'integer'}
    if tp is float:
        return {'type': 'number'}
    if tp is str:
        return {'type': 'string'}
    if tp is bool:
        return {'type': 'boolean'}
    if origin in (list, typing.List):
        (inner,) = get_args(tp) or (Any,)
        return {'type': 'array', 'items': _schema(inner)}
    if isinstance(tp, type) and issubclass(tp, Model):
        return {'$ref': f'#/$defs/{tp.__name__}'}
    return {}


class Model:
    """Declare fields as class annotations (with optional defaults)."""

    model_fields: dict[str, FieldInfo] = {}
    model_config: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldInfo] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, 'model_fields', {}) or {})
        hints = typing.get_type_hints(cls) if cls.__dict__.get('__annotations__') else {}
        for name in cls.__dict__.get('__annotations__', {}):
            if name.startswith('_') or name in ('model_fields', 'model_config'):
                continue
            default = cls.__dict__.get(name, _MISSING)
            if isinstance(default, FieldInfo):
                fields[name] = FieldInfo(hints[name], default.default, default.description)
            else:
                fields[name] = FieldInfo(hints[name], default)
        cls.model_fields = fields

    def __init__(self, **data: Any) -> None:
        errors = []
        self._fields_set: set[str] = set()
        extra = self.model_config.get('extra')
        for name, f in self.model_fields.items():
            if name in data:
                try:
                    object.__setattr__(self, name, _coerce(name, f.annotation, data[name]))
                    self._fields_set.add(name)
                except ValidationError as e:
                    errors.append(str(e))
            elif f.is_required():
                errors.append(f'{name}: Field required')
            else:
                object.__setattr__(self, name, f.default)
        unknown = set(data) - set(self.model_fields)
        if unknown and extra == 'forbid':
            errors.append(f'{", ".join(sorted(unknown))}: Extra inputs are not permitted')
        if errors:
            raise ValidationError(f'{len(errors)} validation error(s) for {type(self).__name__}: ' + '; '.join(errors))

    def model_dump(self, exclude_unset: bool = False, exclude_none: bool = False, **_: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.model_fields:
            if exclude_unset and name not in self._fields_set:
                continue
            v = getattr(self, name)
            if exclude_none and v is None:
                continue
            out[name] = v.model_dump(exclude_unset=exclude_unset, exclude_none=exclude_none) if isinstance(v, Model) else v
        return out

    @classmethod
    def model_json_schema(cls) -> dict[str, Any]:
        props: dict[str, Any] = {}
        required = []
        for name, f in cls.model_fields.items():
            s = dict(_schema(f.annotation))
            if f.description:
                s['description'] = f.description
            if f.is_required():
                required.append(name)
            else:
                s['default'] = f.default
            s['title'] = name.replace('_', ' ').title()
            props[name] = s
        out: dict[str, Any] = {'properties': props, 'title': cls.__name__, 'type': 'object'}
        if required:
            out['required'] = required
        return out

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.model_dump() == other.model_dump()  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f'{type(self).__name__}(' + ', '.join(f'{k}={getattr(self, k)!r}' for k in self.model_fields) + ')'


BaseModel = Model


def create_model(model_name: str, /, __base__: type = Model, **fields: Any) -> type:
    """create_model('x', __base__=B, field=(annotation, default_or_Ellipsis)); field names may be anything."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {'__annotations__': annotations, '__module__': __name__}
    for fname, spec in fields.items():
        annotation, default = spec
        annotations[fname] = annotation
        if default is not ...:
            namespace[fname] = default
    cls = type(model_name, (__base__,), namespace)
    return cls
