"""pydantic (v2) models of pi's session format v3 — for validation and for building entries.

Every model allows unknown fields (``extra="allow"``) and dumps them back; an unknown entry
type validates as :class:`UnknownEntry` and round-trips unchanged. Field order follows pi's key
order (as pi writes them), so ``model_dump(by_alias=True, exclude_unset=True)`` of a parsed record
gives the same keys in the same order. Hot paths never build these models: they work on dicts
(see :mod:`tether.builtin_plugins.storage.format.stringify`); ``tether session show`` uses
:func:`validate_entry`.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Model(BaseModel):
    """A pi record; ``class X(_Model, type="x")`` (or ``role=``, or a tuple of names) gives the
    record its tag once: the first field, only those names valid, the first the default."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    def __init_subclass__(cls, **tag: str | tuple[str, ...]) -> None:
        for key, value in tag.items():  # before pydantic reads the fields
            names = (value,) if isinstance(value, str) else value
            own = cls.__dict__.get("__annotations__", {})
            cls.__annotations__ = {key: Literal[names], **own}
            setattr(cls, key, names[0])
        super().__init_subclass__()

    def to_record(self) -> dict[str, Any]:
        """The JSON-shaped dict pi would write (unset optionals omitted)."""
        return self.model_dump(by_alias=True, exclude_unset=True, mode="json")


def _by_tag(key: str, *models: type[_Model]) -> dict[str, type[_Model]]:
    """Each tag (``type`` or ``role`` name) of ``models`` → its model, for validation."""
    return {name: m for m in models for name in get_args(m.model_fields[key].annotation)}


# ---- content blocks -------------------------------------------------------------------------


class TextContent(_Model, type="text"):
    text: str
    text_signature: str | None = Field(None, alias="textSignature")


class ThinkingContent(_Model, type="thinking"):
    thinking: str
    thinking_signature: str | None = Field(None, alias="thinkingSignature")
    redacted: bool | None = None


class ImageContent(_Model, type="image"):
    data: str
    mime_type: str = Field(alias="mimeType")


class ToolCall(_Model, type="toolCall"):
    id: str
    name: str
    arguments: dict[str, Any]
    thought_signature: str | None = Field(None, alias="thoughtSignature")


UserBlock = TextContent | ImageContent
AssistantBlock = TextContent | ThinkingContent | ToolCall


# ---- messages -------------------------------------------------------------------------------


class UsageCost(_Model):
    input: float = 0
    output: float = 0
    cache_read: float = Field(0, alias="cacheRead")
    cache_write: float = Field(0, alias="cacheWrite")
    total: float = 0


class Usage(_Model):
    input: int = 0
    output: int = 0
    cache_read: int = Field(0, alias="cacheRead")
    cache_write: int = Field(0, alias="cacheWrite")
    total_tokens: int | None = Field(None, alias="totalTokens")
    cost: UsageCost | None = None


class UserMessage(_Model, role="user"):
    content: str | list[UserBlock]
    timestamp: float


class AssistantMessage(_Model, role="assistant"):
    content: list[AssistantBlock]
    api: str | None = None
    provider: str | None = None
    model: str | None = None
    response_model: str | None = Field(None, alias="responseModel")
    response_id: str | None = Field(None, alias="responseId")
    diagnostics: list[dict[str, Any]] | None = None
    usage: Usage | None = None
    stop_reason: Literal["stop", "length", "toolUse", "error", "aborted"] = Field(
        "stop", alias="stopReason"
    )
    error_message: str | None = Field(None, alias="errorMessage")
    timestamp: float


class ToolResultMessage(_Model, role="toolResult"):
    tool_call_id: str = Field(alias="toolCallId")
    tool_name: str = Field(alias="toolName")
    content: list[UserBlock]
    details: Any = None
    is_error: bool = Field(False, alias="isError")
    timestamp: float


class BashExecutionMessage(_Model, role="bashExecution"):
    command: str
    output: str
    exit_code: int | None = Field(None, alias="exitCode")
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = Field(None, alias="fullOutputPath")
    timestamp: float
    exclude_from_context: bool | None = Field(None, alias="excludeFromContext")


class CustomMessage(_Model, role=("custom", "hookMessage")):
    custom_type: str = Field(alias="customType")
    content: str | list[UserBlock]
    display: bool = True
    details: Any = None
    timestamp: float


class BranchSummaryMessage(_Model, role="branchSummary"):
    summary: str
    from_id: str = Field(alias="fromId")
    timestamp: float


class CompactionSummaryMessage(_Model, role="compactionSummary"):
    summary: str
    tokens_before: int = Field(alias="tokensBefore")
    timestamp: float


_MESSAGE_MODELS = _by_tag(
    "role",
    UserMessage,
    AssistantMessage,
    ToolResultMessage,
    BashExecutionMessage,
    CustomMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
)


# ---- header and entries ---------------------------------------------------------------------


class SessionHeader(_Model, type="session"):
    version: int | None = None
    id: str
    timestamp: str
    cwd: str = ""
    parent_session: str | None = Field(None, alias="parentSession")


class _EntryBase(_Model):
    type: str
    id: str
    parent_id: str | None = Field(alias="parentId")
    timestamp: str


class MessageEntry(_EntryBase, type="message"):
    message: dict[str, Any]


class ThinkingLevelChangeEntry(_EntryBase, type="thinking_level_change"):
    thinking_level: str = Field(alias="thinkingLevel")


class ModelChangeEntry(_EntryBase, type="model_change"):
    provider: str
    model_id: str = Field(alias="modelId")


class CompactionEntry(_EntryBase, type="compaction"):
    summary: str
    first_kept_entry_id: str = Field(alias="firstKeptEntryId")
    tokens_before: int = Field(alias="tokensBefore")
    details: Any = None
    from_hook: bool | None = Field(None, alias="fromHook")


class BranchSummaryEntry(_EntryBase, type="branch_summary"):
    from_id: str = Field(alias="fromId")
    summary: str
    details: Any = None
    from_hook: bool | None = Field(None, alias="fromHook")


class LabelEntry(_EntryBase, type="label"):
    target_id: str = Field(alias="targetId")
    label: str | None = None


class SessionInfoEntry(_EntryBase, type="session_info"):
    name: str


class CustomEntry(_Model, type="custom"):
    """pi writes type, customType, data, id, parentId, timestamp — in that order."""

    custom_type: str = Field(alias="customType")
    data: Any = None
    id: str
    parent_id: str | None = Field(alias="parentId")
    timestamp: str


class CustomMessageEntry(_Model, type="custom_message"):
    """pi writes type, customType, content, display, details, id, parentId, timestamp."""

    custom_type: str = Field(alias="customType")
    content: str | list[UserBlock]
    display: bool
    details: Any = None
    id: str
    parent_id: str | None = Field(alias="parentId")
    timestamp: str


class UnknownEntry(_EntryBase):
    """An entry type tether does not know: kept, indexed, walked; contributes no messages."""

    type: str


_ENTRY_MODELS = _by_tag(
    "type",
    MessageEntry,
    ThinkingLevelChangeEntry,
    ModelChangeEntry,
    CompactionEntry,
    BranchSummaryEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    SessionInfoEntry,
)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "record"
    return f"{where}: {err['msg']}"


def validate_message(message: Any) -> _Model:
    """Validate one message object by its role; raises ``ValueError`` naming the field."""
    if not isinstance(message, dict):
        raise ValueError(f"message: expected an object, got {type(message).__name__}")
    model = _MESSAGE_MODELS.get(str(message.get("role")))
    if model is None:
        raise ValueError(f"message.role: unknown role {message.get('role')!r}")
    try:
        return model.model_validate(message)
    except ValidationError as exc:
        raise ValueError("message." + _first_error(exc)) from None


def validate_entry(record: Any) -> _Model:
    """Validate one entry (unknown types: :class:`UnknownEntry`); ``ValueError`` names the field."""
    if not isinstance(record, dict):
        raise ValueError(f"expected an object, got {type(record).__name__}")
    model = _ENTRY_MODELS.get(str(record.get("type")), UnknownEntry)
    try:
        validated = model.model_validate(record)
    except ValidationError as exc:
        raise ValueError(_first_error(exc)) from None
    if isinstance(validated, MessageEntry):
        validate_message(validated.message)
    return validated


def validate_header(record: Any) -> SessionHeader:
    """Validate a session header; ``ValueError`` names the field."""
    try:
        return SessionHeader.model_validate(record)
    except ValidationError as exc:
        raise ValueError(_first_error(exc)) from None


__all__ = [
    "AssistantMessage",
    "BashExecutionMessage",
    "BranchSummaryEntry",
    "BranchSummaryMessage",
    "CompactionEntry",
    "CompactionSummaryMessage",
    "CustomEntry",
    "CustomMessage",
    "CustomMessageEntry",
    "ImageContent",
    "LabelEntry",
    "MessageEntry",
    "ModelChangeEntry",
    "SessionHeader",
    "SessionInfoEntry",
    "TextContent",
    "ThinkingContent",
    "ThinkingLevelChangeEntry",
    "ToolCall",
    "ToolResultMessage",
    "UnknownEntry",
    "Usage",
    "UsageCost",
    "UserMessage",
    "validate_entry",
    "validate_header",
    "validate_message",
]
