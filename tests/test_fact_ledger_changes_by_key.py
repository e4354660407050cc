"""The fact ledger tells a change by its key and the shape of its value, whatever the words
(issue 23, item 2): a later message naming the same key with another value of one shape —
a version tuple, a file extension, a dotted id renamed, a path template, a host, a quantity —
retires the earlier rule; the opening message's changed values carry a change note (a value
changed twice names only the last); a Chinese "保持 X 不变" changed later is retired. Values of
one shape said of two parts (source / target, min / max, staging / prod) both stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gate_helpers import assistant, text, user
from tests.ledger_helpers import FactFree, compactions, write_turns
from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.keyshape import reshaped

OPENING = "We're putting together the export tooling for the mapping team."


def ledger_of(*said: str, opening: str = OPENING) -> Ledger:
    messages = []
    for turn in (opening, *said):
        messages += [user(turn), assistant([text("OK.")])]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def current(ledger: Ledger, value: str) -> list[str]:
    """Live rules that still show ``value``."""
    return [f.text for f in ledger.live("constraint", "decision") if value in f.text]


def live_text(ledger: Ledger) -> str:
    return "\n".join(f.text for f in ledger.live())


# -- 1. one key, another value of the same shape: a change, with no cue word ------------------

CHANGES = [
    (  # a version tuple
        "The plugin's manifest declares min_host_version (2, 14, 0).",
        "min_host_version should read (2, 18, 3), the older hosts lack the tile cache.",
        "(2, 14, 0)",
        "(2, 18, 3)",
    ),
    (  # a file extension as the output format
        "Rendered previews are written as .tga files.",
        "the previews: .webp please, the artists view them in a browser",
        ".tga",
        ".webp",
    ),
    (  # a dotted id renamed
        "The command is registered as `tiles.rebuild_cache`.",
        "registered name for the command: `cache.rebuild_tiles`, so it groups with the rest",
        "tiles.rebuild_cache",
        "cache.rebuild_tiles",
    ),
    (  # a host
        "Tiles are fetched from tiles-a.mapdata.example.com for now.",
        "fetch the tiles from cdn.mapdata.example.org, the a-box is overloaded",
        "tiles-a.mapdata.example.com",
        "cdn.mapdata.example.org",
    ),
    (  # a path template
        "Cache tiles under cache/{z}/{x}/{y}.png on disk.",
        "tile cache path: store/{layer}/{z}-{x}-{y}.png, one folder per layer is easier to purge",
        "cache/{z}/{x}/{y}.png",
        "store/{layer}/{z}-{x}-{y}.png",
    ),
    (  # a route template with named segments, kept unchanged in Chinese, then changed
        "固定链接保持 /:category/:slug/ 不变。",
        "固定链接改成 /notes/:slug/，分类以后会调整。",
        "/:category/:slug/",
        "/notes/:slug/",
    ),
    (  # a version whose key is the file named beside it
        "set `rust-toolchain` to 1.76.0 for the workspace",
        "the runners ship 1.79.0 now, so put 1.79.0 in `rust-toolchain`",
        "1.76.0",
        "1.79.0",
    ),
    (  # Chinese: a path kept unchanged, then changed
        "回调地址保持 /hooks/v1/tiles 不变。",
        "回调地址改成 /hooks/v2/tiles，旧的网关月底下线。",
        "/hooks/v1/tiles",
        "/hooks/v2/tiles",
    ),
    (  # Chinese: "保持 X 不变", then just "用 Y" for the same key
        "字符集保持 GB18030 不变。",
        "字符集用 UTF-8 吧，下游已经都支持了。",
        "GB18030",
        "UTF-8",
    ),
    (  # Chinese: "X 不要动", then "还是用 Y"
        "日志时区不要动，保持 UTC。",
        "日志时区还是用 Europe/Berlin 吧，运维都在德国。",
        "UTC",
        "Europe/Berlin",
    ),
]


@pytest.mark.parametrize(("first", "later", "old", "new"), CHANGES)
def test_one_key_given_another_value_of_its_shape_retires_the_old(
    first: str, later: str, old: str, new: str
) -> None:
    ledger = ledger_of(first, "Add a progress bar to the exporter.", later)
    assert current(ledger, old) == []
    assert new in live_text(ledger)
    assert ledger.replaced(next(f for f in ledger.live() if new in f.text))


# -- 2. the opening message's values: a change note, the last value of a chain ---------------

GOAL_EN = (
    "Write me an exporter that saves each map sheet as .tiff, exposed as the command "
    "`sheets.export_tiff`, and it has to declare api_level (1, 4, 0)."
)
LATER_EN = [
    "Add a dry-run switch.",
    "api_level goes to (2, 0, 0), the old level is deprecated upstream.",
    "Sheets should come out as .jp2 files, the archive wants JPEG 2000.",
    "Name the command `sheets.export_jp2` then.",
    "hmm, could we call it `archive.push_sheets` instead? that's what the menu says",
]
GOAL_ZH = "帮我写个导出脚本，把图幅导出成 .png，输出目录是 out/sheets，分辨率保持 300dpi 不变。"
LATER_ZH = [
    "加一个只导出前十张的开关。",
    "导出格式改成 .tif，印刷厂要无损的。",
    "分辨率用 600dpi。",
]


def test_changed_goal_values_are_noted_with_their_last_value() -> None:
    ledger = ledger_of(*LATER_EN, opening=GOAL_EN)
    note = ledger.goal_note()
    for old, new in (
        ("(1, 4, 0)", "(2, 0, 0)"),
        (".tiff", ".jp2"),
        ("sheets.export_tiff", "archive.push_sheets"),
    ):
        assert f'"{old}" changed to "{new}"' in note, (old, note)
    assert "sheets.export_jp2" not in note  # the value in between is no current value
    assert current(ledger, "sheets.export_jp2") == []
    assert "archive.push_sheets" in live_text(ledger)


def test_a_bare_rename_is_changed_again_by_its_key() -> None:
    """A → B ("can we call it B instead?", no key of its own) → C (the key named again):
    B is no current value, and the goal's A is noted as changed to C."""
    ledger = ledger_of(
        "Add a dry-run switch.",
        "Could we call it `layout.sheet_batch` instead?",
        "Update the README.",
        "the command id is `atlas.batch_sheets` now, the menu group was renamed",
        opening="Build an exporter for the map sheets, exposed as the command `sheets.export_all`.",
    )
    assert current(ledger, "layout.sheet_batch") == []
    assert '"sheets.export_all" changed to "atlas.batch_sheets"' in ledger.goal_note()


def test_changed_chinese_goal_values_are_noted() -> None:
    ledger = ledger_of(*LATER_ZH, opening=GOAL_ZH)
    note = ledger.goal_note()
    assert '".png" changed to ".tif"' in note
    assert '"300dpi" changed to "600dpi"' in note
    assert "out/sheets" not in note  # never changed


TRACKS = ["offline", "factfree"]


def _stale_lines(summary: str, value: str, new: str) -> list[str]:
    """Lines outside ``### Done`` that show ``value`` as current (no change note, not the
    new value beside it)."""
    out, heading = [], ""
    head = r"(?<![A-Za-z0-9_])" if value[0].isalnum() else ""
    token = re.compile(head + re.escape(value) + r"(?![A-Za-z0-9_])")
    for line in summary.splitlines():
        if line.startswith("#"):
            heading = line.strip()
        elif heading != "### Done" and token.search(line):
            if new not in line and "changed to" not in line:
                out.append(line)
    return out


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize(
    ("turns", "retired"),
    [
        (
            [GOAL_EN, *LATER_EN],
            [
                ("(1, 4, 0)", "(2, 0, 0)"),
                (".tiff", ".jp2"),
                ("sheets.export_tiff", "archive.push_sheets"),
                ("sheets.export_jp2", "archive.push_sheets"),
            ],
        ),
        ([GOAL_ZH, *LATER_ZH], [(".png", ".tif"), ("300dpi", "600dpi")]),
    ],
)
def test_no_summary_shows_a_changed_value_as_current(
    tmp_path: Path, track: str, turns: list[str], retired: list[tuple[str, str]]
) -> None:
    file = tmp_path / f"{track}.jsonl"
    write_turns(file, turns, reply="Noted.")
    plugins = [("factfree", FactFree())] if track == "factfree" else []
    for entry in compactions(file, 2, *plugins, summarizer=track):
        summary = entry["summary"]
        for old, new in retired:
            assert _stale_lines(summary, old, new) == [], (old, summary)
        for _old, new in retired:
            assert new in summary


# -- 3. Chinese rules kept unchanged, then changed: retired ---------------------------------


def test_a_chinese_keep_unchanged_rule_changed_later_is_no_constraint() -> None:
    ledger = ledger_of(
        "接口前缀保持 /api/v3 不变。",
        "每页条数保持 20 条不变。",
        "先把导出按钮做出来。",
        "接口前缀还是用 /gateway/v3 吧。",
        "每页条数改成 100 条。",
    )
    rules = "\n".join(f.text for f in ledger.live("constraint", "decision"))
    assert "保持 /api/v3 不变" not in rules
    assert "保持 20 条不变" not in rules
    assert "/gateway/v3" in rules and "100 条" in rules


# -- 4. look-alike values for two parts both stay ------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The source format is .shp.", "The target format is .gpkg."),
        ("Minimum zoom is 3x.", "Maximum zoom is 18x."),
        ("Staging tiles come from tiles.stage.example.net.", "Prod tiles: tiles.example.net."),
        ("The legacy plugin id is `geo.sheet_export`.", "New plugin id: `maps.sheet_export`."),
        ("Tiles are read from cache/{z}/{x}/{y}.png.", "Tiles are written to out/{z}/{x}.webp."),
        ("The API is served from api.example.com.", "Docs are served from docs.example.com."),
        ("Logs are kept as .txt files.", "Reports are kept as .pdf files."),
        ("输入格式是 .shp。", "输出格式是 .gpkg。"),
        ("测试环境回调地址是 /hooks/test。", "生产环境回调地址是 /hooks/prod。"),
    ],
)  # fmt: skip
def test_values_of_one_shape_for_two_parts_both_stay(first: str, second: str) -> None:
    ledger = ledger_of(first, second)
    rules = [f.text for f in ledger.live("constraint", "decision")]
    assert first in rules and second in rules
    assert reshaped(second, first, default_cues()) == []


def test_a_path_that_names_a_file_is_no_value_of_a_key() -> None:
    assert reshaped("Don't touch styles/roads.qml.", "Don't touch styles/water.qml.") == []


# -- 5. one value swapped for another in so many words --------------------------------------


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("报表数据是 Excel，用 openpyxl 读 Excel 就行。", "别用 openpyxl 了，用 calamine。"),
        ("报表数据是 Excel，用 openpyxl 读 Excel 就行。", "读取换 calamine 吧，openpyxl 太慢。"),
        ("Read the sheets with openpyxl.", "switch the reader from openpyxl to calamine"),
        ("Read the sheets with openpyxl.", "replace openpyxl with calamine, it's way faster"),
        ("Read the sheets with openpyxl.", "openpyxl → calamine"),
    ],
)
def test_a_value_swapped_for_another_retires_the_rule_stating_it(first: str, later: str) -> None:
    ledger = ledger_of(first, "加一个按月份汇总的功能。", later)
    assert [t for t in current(ledger, "openpyxl") if "calamine" not in t] == []


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("Input files are CSV.", "Convert the files from CSV to Parquet for the warehouse."),
        ("Thumbnails are generated on upload.", "The pipeline is upload → resize → store."),
    ],
)
def test_a_conversion_or_a_flow_is_no_swap(first: str, later: str) -> None:
    assert first in [f.text for f in ledger_of(first, later).live("constraint")]


# -- 6. back to the first value; names of keys are no values --------------------------------


@pytest.mark.parametrize(
    "later",
    [
        "Let's keep `sheets.export_all` after all, the keymaps depend on it.",
        "go back to sheets.export_all, renaming breaks macros",
    ],
)
def test_going_back_to_the_first_value_retires_the_rename(later: str) -> None:
    ledger = ledger_of(
        "Add a dry-run switch.",
        "Could we call it `layout.sheet_batch` instead?",
        "Update the README.",
        later,
        opening="Build an exporter for the map sheets, exposed as the command `sheets.export_all`.",
    )
    assert current(ledger, "layout.sheet_batch") == []
    assert "sheets.export_all" not in ledger.goal_note()


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (
            "Consume the tiles.v2 topic from the start.",
            "Actually set `fetch.bytes` to 4 MB instead, the tiles are big.",
        ),
        ("草稿用 draft 标记，不要发布。", "文章配置里 permalink: /:slug/ 就行。"),
    ],
)
def test_the_name_of_a_key_set_in_place_is_no_value(first: str, later: str) -> None:
    ledger = ledger_of(first, later)
    assert first in [f.text for f in ledger.live("constraint", "decision", "request")]


@pytest.mark.parametrize(
    "later",
    [
        "Use /posts/:slug/ for the permalinks.",
        "permalinks: /posts/:slug/ from now on",
        "Let's not rename the routes after all.",
    ],
)
def test_a_route_template_kept_in_chinese_is_changed_in_english(later: str) -> None:
    ledger = ledger_of("固定链接保持 /:category/:slug/ 不变。", "先把标签页做出来。", later)
    if "rename" in later:  # no rename was said: nothing is taken back
        assert current(ledger, "/:category/:slug/") != []
    else:
        assert current(ledger, "/:category/:slug/") == []


def test_a_rename_taken_back_retires_the_new_name() -> None:
    ledger = ledger_of(
        "Add a dry-run switch.",
        "Could we call it `layout.sheet_batch` instead?",
        "名字还是不改了，大家都习惯了。",
        opening="Build an exporter for the map sheets, exposed as the command `sheets.export_all`.",
    )
    assert current(ledger, "layout.sheet_batch") == []


def test_a_bare_rename_is_changed_by_a_later_id_of_its_namespace() -> None:
    ledger = ledger_of(
        "Add a dry-run switch.",
        "Could we call it `atlas.sheet_batch` instead?",
        "Sheets go out as .jp2 now, so the command should be `atlas.sheet_jp2`.",
        opening="Build an exporter for the map sheets with a command of its own.",
    )
    assert current(ledger, "atlas.sheet_batch") == []
    assert "atlas.sheet_jp2" in live_text(ledger)
