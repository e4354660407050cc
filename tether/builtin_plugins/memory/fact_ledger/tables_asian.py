"""Cue tables for Japanese and Korean users (Chinese is in :mod:`.tables`): the same kinds as
the English table, matched as substrings, as a script without spaces between words needs.

A cue of Chinese characters alone would also be read in a Chinese sentence, where it may mean
something else (不要 is "no need" in Japanese, "do not" in Chinese): these tables hold cues
with kana or hangul in them, or ones that mean the same in both (禁止).
"""

from __future__ import annotations

JAPANESE: dict[str, tuple[str, ...]] = {
    "constraint": (
        "しないで", "ないでください", "ないように", "禁止", "必ず", "常に", "いつも", "だけに",
        "のみ", "以内", "以下に", "以上に", "使わないで", "避けて", "今後は", "これからは",
    ),
    "decision": (
        "にします", "にしましょう", "で行きましょう", "でいきます", "に決めました", "を採用",
    ),
    "next_step": ("次は", "次に", "次のステップ", "終わったら"),
    "change": (
        "に変更して", "に変更します", "に変更で", "に変えてください", "に変えましょう",
        "に切り替えてください", "に切り替えましょう", "に切り替えます", "にしてください",
        "に移行します", "に移行しましょう", "に戻してください", "今後は", "これからは", "ではなく",
    ),
    "revoke": (
        "いらない", "要らない", "不要です", "不要になりました", "やめます", "やめましょう",
        "外してください", "削除してください", "使わないことに", "もう使わ",
        "忘れてください",
    ),
    "mask": ("ようにしてください", "ようにして", "ように"),
    "accept": ("はい", "了解", "いいですね", "オッケー", "お願いします", "それで"),
    "filler": ("続けて", "続きを", "どうぞ"),
    "goal": ("したい", "作りたい", "目標は", "目的は", "お願いしたい", "してほしい"),
    "provisional": ("とりあえず", "一旦", "ひとまず", "当面", "今のところ"),
}  # fmt: skip

KOREAN: dict[str, tuple[str, ...]] = {
    "constraint": (
        "하지 마", "하지 말", "말고", "절대", "항상", "반드시", "꼭", "금지", "않게", "이하로",
        "이상으로", "앞으로는", "이제부터",
    ),
    "decision": ("로 하죠", "으로 하죠", "로 가죠", "으로 가죠", "로 결정", "으로 결정", "쓰기로"),
    "next_step": ("다음은", "다음으로", "나중에", "끝나면"),
    "change": (
        "로 바꿔", "으로 바꿔", "로 변경", "으로 변경", "로 교체", "으로 교체", "대신",
        "이제부터", "앞으로는",
    ),
    "revoke": (
        "빼주세요", "빼 주세요", "빼줘", "필요 없", "안 써", "쓰지 않", "없애",
        "삭제해",
    ),
    "accept": ("네", "좋아요", "좋습니다", "알겠습니다", "그렇게 해"),
    "filler": ("계속 진행", "계속 해 주세요"),
    "goal": ("목표는", "하고 싶", "만들고 싶", "해 주세요"),
    "provisional": ("일단", "우선", "당분간", "지금은"),
}  # fmt: skip

__all__ = ["JAPANESE", "KOREAN"]
