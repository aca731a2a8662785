"""browser_use 0.1.48 controller/views.py param models (used when pydantic/browser_use are absent)."""
from typing import Optional

from .models import Model


class SearchGoogleAction(Model):
    query: str


class GoToUrlAction(Model):
    url: str


class ClickElementAction(Model):
    index: int
    xpath: Optional[str] = None


class InputTextAction(Model):
    index: int
    text: str
    xpath: Optional[str] = None


class DoneAction(Model):
    text: str
    success: bool


class SwitchTabAction(Model):
    page_id: int


class OpenTabAction(Model):
    url: str


class CloseTabAction(Model):
    page_id: int


class ScrollAction(Model):
    amount: Optional[int] = None


class SendKeysAction(Model):
    keys: str


class ExtractPageContentAction(Model):
    value: str


class NoParamsAction(Model):
    """Accepts anything and discards it (0.1.48: extra='allow' + a before-validator returning {})."""

    model_config = {'extra': 'allow'}

    def __init__(self, **_: object) -> None:
        super().__init__()


class Position(Model):
    x: int
    y: int


class DragDropAction(Model):
    element_source: Optional[str] = None
    element_target: Optional[str] = None
    element_source_offset: Optional[Position] = None
    element_target_offset: Optional[Position] = None
    coord_source_x: Optional[int] = None
    coord_source_y: Optional[int] = None
    coord_target_x: Optional[int] = None
    coord_target_y: Optional[int] = None
    steps: Optional[int] = 10
    delay_ms: Optional[int] = 5
