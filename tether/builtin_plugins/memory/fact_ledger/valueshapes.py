"""The shapes of values :mod:`.implicit` reads by pattern: a cloud region, a time a job runs,
the words naming a schedule, a date format, a port."""

from __future__ import annotations

import re

REGION = re.compile(
    r"(?<![\w-])(?:us|eu|ap|sa|ca|me|af|il|mx|cn|europe|asia|australia|northamerica"
    r"|southamerica|africa)-(?:gov-)?(?:north|south|east|west|central|northeast|southeast"
    r"|northwest|southwest)-?\d{1,2}(?![\w-])",
    re.IGNORECASE,
)
DAY = r"(?:[一二三四五六日天]|\s*\d{1,2}\s*[号日])"
#: A time a job runs: 每月 25 号凌晨 2 点, 每周五下午 6 点半, every Friday at 6pm, 0 2 25 * *.
SCHEDULE = re.compile(
    rf"(?:每(?:天|日|晚|周{DAY}?|星期{DAY}|月{DAY})|周{DAY}|星期{DAY}|\d{{1,2}}\s*[号日])?\s*"
    r"(?:凌晨|早上|上午|中午|下午|傍晚|晚上|夜里)?\s*\d{1,2}\s*点(?:半|\s*\d{1,2}\s*分)?"
    r"|(?:\b(?:every|each|on)\s+(?:\w+\s+){0,3}?)?(?:\bat\s+)?\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\b"
    r"|(?<![\w*/])(?=(?:[\d*/,-]+\s+){0,4}[\d*/,-]*\*)[\d*/,-]+(?:\s+[\d*/,-]+){4}(?![\w*/])",
    re.IGNORECASE,
)
#: Words that name a schedule: its values are one subject ("时间也调一下：每月 24 号…").
SCHEDULE_WORDS = re.compile(
    r"\b(?:schedule[sd]?|cron|crontab|timer|time|runs?|run time)\b|时间|定时|计划任务|cron|跑",
    re.IGNORECASE,
)
#: A date format: ``dd/mm/yyyy``, ``YYYY-MM-DD``, ``dd-mmm-yyyy``, ``%Y-%m-%d``.
DATE_FORMAT = re.compile(
    r"(?<![\w%])[dmy]{1,4}(?:[/.-][dmy]{1,4}){1,2}(?![\w%])|%[a-z](?:[/.: -]?%[a-z]){1,5}",
    re.IGNORECASE,
)
PORT = re.compile(r"(?:\bport\b|端口)\W{0,3}?\s*(?:is\s+|to\s+|=\s*|为\s*|是\s*)?(\d{2,5})\b", re.I)

__all__ = ["DATE_FORMAT", "DAY", "PORT", "REGION", "SCHEDULE", "SCHEDULE_WORDS"]
