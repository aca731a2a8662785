"""agent/views.py ActionResult (0.1.48), section 1.10."""
from dataclasses import dataclass
from typing import Optional


@dataclass
class ActionResult:
    is_done: Optional[bool] = False
    success: Optional[bool] = None
    extracted_content: Optional[str] = None
    error: Optional[str] = None
    include_in_memory: bool = False
