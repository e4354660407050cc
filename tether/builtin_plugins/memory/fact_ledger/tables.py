"""The built-in cue tables, English and Chinese (Spanish, French, German, Portuguese,
Italian and Dutch in :mod:`.tables_european`, Japanese and Korean in :mod:`.tables_asian`):
data, one table per language.

Each maps a cue kind (:data:`~tether.builtin_plugins.memory.fact_ledger.cues.KINDS`) to
phrases; :mod:`.cues` merges them with the tables plugins register (``register_fact_cues``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tether.builtin_plugins.memory.fact_ledger.tables_asian import JAPANESE, KOREAN
from tether.builtin_plugins.memory.fact_ledger.tables_european import (
    DUTCH,
    FRENCH,
    GERMAN,
    ITALIAN,
    PORTUGUESE,
    SPANISH,
)

ENGLISH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "must", "must not", "never", "always", "don't", "do not", "dont", "shouldn't",
        "should", "prefer", "prefers", "preferably", "only", "avoid", "make sure", "ensure",
        "require", "requires", "required", "requirement", "without", "no more than", "at most",
        "at least", "stick to", "target", "we target", "constraint", "have to", "keep ... in",
        "keep ... under", "keep ... within", "keep ... below", "keep ... above", "keep ... to",
        "keep ... out of", "keep ... as", "keep ... short", "keep ... small", "keep using",
        "keep ... at", "set ... to", "stay ... under", "stays", "stay", "go with", "cap",
        "capped", "limit ... to", "i'm on", "we're on", "we are on", "is what", "are what",
        "runs on", "run on", "we use", "we're using", "i use", "i'm using", "works for me",
        "i'm used to", "default to", "defaults to", "should be", "needs to be", "is fine",
        "are fine", "is okay", "matters", "care about", "prefer not", "not allowed",
        "forbidden", "mandatory", "required to", "let's not",
        "use ... not", "not ... but",
        "need to", "needs to", "can't", "cannot", "mustn't", "i like", "i love", "i hate",
        "i'd rather", "rather", "for me", "personally", "i want", "i'd like", "please use",
        "not a fan", "i'm a fan", "my preference", "i find", "works best", "limit", "max",
        "maximum", "minimum", "please keep", "from now on", "no longer", "instead of",
        "switch to", "has to", "is to be", "are to be", "better to", "happier with",
        "leave out", "nothing but", "stay on", "pinned", "pin", "revert ... to", "roll back to",
        "rules", "ground rules", "requirements", "constraints", "conventions", "guidelines",
        "deadline", "due by", "is due", "due on", "no later than",
        "leave ... alone", "as is", "as-is", "untouched",
    ),
    "decision": (
        "decided", "decide to", "we decided", "instead of", "rather than", "chose", "choose to",
        "we're going with", "go with", "opted", "switch to", "switched to",
        "i'll use", "we'll use", "will use", "decision", "let's use", "settled on", "agreed on",
        "we'll go", "let's go", "pick", "picked",
    ),
    "next_step": (
        "next", "next step", "then", "after that", "afterwards", "todo", "as a next step",
        "later", "once that", "once this", "when that", "following that", "up next",
        "when it's done", "once it's done", "when that's done", "once that's done", "when done",
        "once done",
    ),
    "change": (
        "switch to", "switched to", "switching to", "instead of", "instead", "rather than",
        "scratch that",
        "after all", "from now on", "change to", "changed to", "change it to", "now use",
        "replace", "replaced", "move to", "moved to", "actually", "correction", "update:",
        "no wait", "on second thought", "bump", "bumped", "make it", "let's make it", "make that",
        "use ... now", "switch ... to", "change ... to", "move ... to", "go back to",
        "i meant", "meant to say", "revert ... to", "roll back to", "back to", "revert that",
        "undo that", "roll that back", "go down to", "go up to",
    ),
    "revoke": (
        "no longer", "scratch that", "scratch the", "scrap", "forget", "never mind", "nevermind",
        "drop the",
        "not anymore", "anymore", "any more", "no more", "stop using", "don't bother",
        "ignore what i said", "is lifted", "lift the",
        "remove the rule", "we can drop", "not needed", "isn't needed", "no need for",
        "get rid of", "can be dropped", "can be removed", "can go away", "can go $",
    ),
    "revert": (
        "go back to the old", "go back to the previous", "go back to the original",
        "go back to what we had", "go back to what", "back to the old", "back to the previous",
        "back to the original",
        "back to how it was", "back to what we had", "back to the way it was", "revert to",
        "revert that", "revert it", "revert this", "revert the change", "revert back",
        "undo that", "undo this", "undo it", "undo the change", "roll that back",
        "roll it back", "roll back to", "change it back", "set it back", "put it back",
        "switch it back", "switch back", "as before", "like before", "what we had before",
        "what we had", "the way it was", "the old one", "the previous one", "the original one",
        "the old value", "the previous value", "the original value", "the old setting",
        "the previous setting", "the original setting", "scratch that", "wait no", "no wait",
        "forget that", "never mind that", "ignore that", "take that back",
    ),
    "discard": (
        "remove", "delete", "drop", "take ... out", "get rid of", "getting deleted",
        "being deleted", "will be deleted", "is deleted", "torn down", "tear down",
        "decommissioned", "shut down", "don't need", "do not need", "no need for",
        "not needed", "no longer need", "can go", "goes away", "is going away",
        "stop passing", "stop setting", "ditch", "scrap", "comes out of", "come out of", "kill",
    ),
    "accept": (
        "yes", "yep", "yeah", "ok", "okay", "sure", "agreed", "sounds good", "go ahead",
        "do it", "please do", "lgtm", "let's do it", "let's do that", "that works", "fine",
        "perfect", "great",
    ),
    "proposal": (
        "i suggest", "i propose", "i recommend", "shall i", "should i", "should we",
        "how about", "i could", "we could", "i'd suggest", "my suggestion", "want me to",
        "i'd propose", "i'd recommend", "i would suggest", "i would propose", "i would recommend",
        "would it make sense", "does it make sense", "what about", "would you like me to",
        "do you want me to", "might be worth", "maybe we should", "we should probably",
        "would you be open to", "are you open to", "would you be ok with", "are you ok with",
    ),
    "filler": (
        "continue", "go on", "keep going", "proceed", "ok", "okay", "thanks", "thank you",
        "yes", "no", "sure", "go ahead", "carry on", "next", "yep",
    ),
    "task": (
        "add", "fix", "write", "run", "make", "create", "implement", "update", "remove",
        "delete", "refactor", "build", "check", "look", "try", "port", "move", "rename", "show",
        "tell", "explain", "investigate", "debug", "deploy", "test", "review", "start", "get",
        "set up", "help", "can you", "could you", "would you", "please", "let's", "go",
        "find", "open", "read", "install", "upgrade", "migrate", "convert", "generate", "draft",
        "clean", "split", "merge", "wire", "hook", "figure out", "pick up", "picking up",
        "progress check", "summarize", "list", "print", "compare", "profile", "measure",
    ),
    "replaces": (
        "instead of", "rather than", "in place of", "replacing", "now not", "stop writing to",
        "stop logging to", "stop sending to", "stop pushing to", "stop reading from",
    ),
    "gone": (
        "is gone", "are gone", "is dead", "is deprecated", "is end of life", "is eol",
        "is out", "is retired", "was too", "is no more", "is off the table", "is going away",
        "are going away", "goes away",
    ),
    "select": (
        "use", "using", "uses", "with", "via", "through", "pick", "choose", "prefer",
        "go with", "stick with", "switch to", "rely on", "build on", "parsed with", "is",
        "are", "be", "to", "in", "on",
    ),
    "current": (
        "now", "these days", "nowadays", "currently", "new", "newer", "latest", "today",
        "upgraded", "finally", "anymore", "any more",
    ),
    "goal": (
        "i'd like you to", "i want you to", "i need you to", "i'd like to", "i want to",
        "we want to", "we'd like to", "the goal is", "our goal", "my goal", "the aim is",
        "goal", "objective",
        "i'm trying to", "we're trying to", "help me", "i was hoping", "i'm hoping",
        "we're hoping", "i'm looking to", "we're looking to", "the task is",
        "wondering if you could", "would it be possible", "it would be great if",
        "the goal here is", "the aim here is", "what we want", "what i want", "what we need",
        "what i need", "what we're after", "what i'm after", "the end goal", "the idea is",
    ),
    "provisional": (
        "for now", "for the time being", "to start with", "temporarily", "initially",
        "at first", "as a stopgap",
    ),
    "choice": ("it is", "it'll be", "then", "for now", "it's settled"),
    "ask": (
        "what", "which", "how", "why", "where", "when", "who", "whose", "should we", "shall we",
        "should i", "shall i", "is it", "is there", "are there", "is this", "are we", "do we",
        "does it", "did", "any idea", "any ideas", "thoughts", "whether",
    ),
    "complaint": (
        "why ... again", "how come ... again", "why do you keep", "why does it keep",
        "why are you still", "how many times", "can we not", "could we not", "can you not",
        "could you not", "would you not", "can we please not", "can you please not",
        "could you please not", "can you stop", "could you stop", "would you stop",
        "can you please stop", "could you please stop", "please stop",
    ),
}  # fmt: skip

CHINESE: dict[str, tuple[str, ...]] = {
    "constraint": (
        "必须", "务必", "一定要", "不要", "不能", "不可", "不许", "别", "禁止", "勿", "只能",
        "只用", "只", "总是", "始终", "永远", "一律", "尽量", "避免", "保持", "确保", "要求",
        "至少", "最多", "不超过", "不得", "应该", "应当", "需要", "得用", "偏好", "更喜欢",
        "喜欢", "习惯", "倾向", "希望", "最好", "宁愿", "对我来说", "限制", "上限", "下限",
        "以后", "不再", "改为", "换成", "改用", "用的是", "习惯用", "就行", "为准", "统一",
        "一律", "千万", "绝不", "不准", "请用", "别用", "规则", "规范", "约定",
        "之前要", "之前得", "以前要", "前要交", "前要", "前得", "截止", "最晚", "都按", "全部按",
        "一概",
    ),
    "decision": (
        "决定", "采用", "选用", "就用", "选择", "定了", "敲定", "用这个", "那就", "我们用",
        "改为", "换成", "改用", "就它", "就选", "就这么定", "用它", "更合适", "就这样",
        "就定", "定成", "定为", "选定",
        "选", "拍板", "最终用", "最后用", "最终选", "结论是", "方案是", "就按", "按这个来",
        "还是用", "还是选", "那就用", "直接用", "就走",
    ),
    "next_step": (
        "下一步", "接下来", "然后", "之后", "随后", "再来", "待办", "后面", "稍后", "回头",
        "完成后", "做完后", "搞定后", "弄完后",
    ),
    "change": (
        "改为", "换成", "改用", "改成", "替换", "而不是", "以后", "从现在起", "从现在开始",
        "今后", "不用了", "还是用", "还是", "更正", "其实", "改回", "换回", "回退到", "恢复成",
        "改到", "挪到", "切到", "切换到", "改接", "改连", "改放", "改存", "改走", "改发", "改挂",
        "缩短到", "缩短为", "延长到", "延长为", "提高到",
        "提高为", "降低到", "降低为", "增加到", "减少到", "放宽到", "收紧到",
    ),
    "revoke": (
        "不再", "取消", "算了", "不用了", "作废", "撤销", "去掉", "忽略之前", "不需要了", "删掉",
        "拿掉",
    ),
    "revert": (
        "用回", "改回", "换回", "切回", "调回", "回退到", "回滚到", "恢复成", "恢复到", "恢复为",
        "还原成", "还原为", "还原到", "还是用之前", "还是用原来", "还是用以前", "还是按之前",
        "还是按原来", "用原来的", "用之前的", "用以前的", "按原来的", "按之前的", "照原来的",
        "原来那个", "之前那个", "跟以前一样", "和以前一样", "和原来一样", "跟原来一样", "照旧",
        "刚才说的不算", "当我没说", "刚才那个不要了", "撤回刚才",
    ),
    "discard": (
        "删掉", "删除", "去掉", "不需要", "不用了", "不要了", "拿掉", "移除", "下线", "停用",
        "弃用", "要删",
    ),
    "accept": ("好", "好的", "可以", "行", "同意", "没问题", "就这么办", "照你说的", "嗯"),
    "proposal": ("建议", "要不要", "我们可以", "我可以", "是否", "不如", "可以考虑", "要不"),
    "filler": ("继续", "好的", "谢谢", "行", "嗯", "接着", "go on"),
    "task": (
        "帮我", "请", "把", "给", "加", "写", "修", "实现", "看看", "跑", "改", "做", "查", "删",
        "更新", "先", "开始", "处理", "排查", "检查", "部署", "升级", "迁移", "重构",
    ),
    "replaces": ("而不是", "不用", "取代", "代替", "换掉"),
    "gone": ("别用了", "不用了", "下线了", "要下线", "弃用", "作废了", "淘汰"),
    "select": ("用", "使用", "采用", "选用", "改用", "基于", "选", "是", "为"),
    "current": ("现在", "目前", "如今", "已经", "升级", "新"),
    "mask": (
        "转换成", "转换为", "转成", "变换成", "替换成", "不行", "好像", "可以吗", "是否可以",
        "别的", "别人", "区别", "只是", "不只", "之后的", "以后的",
        "选项", "可选", "候选", "筛选", "选中", "选择器", "选填", "单选", "多选",
    ),
    "goal": (
        "希望", "想要", "想请", "我想", "我们想", "目标是", "目标：", "打算", "准备", "计划",
        "请帮我", "请帮忙", "帮我", "帮忙", "麻烦您", "麻烦你", "麻烦帮", "能否", "能不能",
        "可不可以", "可以帮", "需要你", "需要您", "想让你", "想让您", "任务是", "需求是",
        "有个需求", "想把", "请你", "请您", "拜托", "目标就是", "目的是", "目的就是",
        "我们要的是", "我要的是", "最终目标", "最终想", "最终是要",
    ),
    "provisional": ("先用", "先出", "先按", "先设", "先定", "暂时", "暂且", "临时", "目前先"),
    "choice": ("吧", "了", "啦", "呗"),
    "ask": (
        "什么", "怎么", "为什么", "为何", "哪", "如何", "多少", "是不是", "有没有", "对吗",
        "要不要",
    ),
    "complaint": (
        "又", "老是", "怎么还", "说了多少次", "都说了", "不是说了", "能不能别", "能不能不要",
        "可不可以不要", "可以不要", "能别", "别再",
    ),
}  # fmt: skip

#: Signs any language writes with: a thumbs-up or a check mark accepts a proposal.
SIGNS: dict[str, tuple[str, ...]] = {
    "accept": ("👍", "👌", "✅", "✔", "🆗", "🙆"),
    "filler": ("👍", "👌", "✅", "✔", "🆗", "🙆"),
}

BUILTIN_TABLES: dict[str, Mapping[str, Sequence[str]]] = {
    "en": ENGLISH,
    "zh": CHINESE,
    "es": SPANISH,
    "fr": FRENCH,
    "de": GERMAN,
    "pt": PORTUGUESE,
    "it": ITALIAN,
    "nl": DUTCH,
    "ja": JAPANESE,
    "ko": KOREAN,
    "signs": SIGNS,
}
