"""The ``chinese`` family: a user who writes Chinese (goal, three constraints, a decision, a
next step), as Chinese-speaking users write: short turns, English technical words mixed in."""

from __future__ import annotations

from typing import Any

C, N, D, G = "Constraints & Preferences", "Next Steps", "Key Decisions", "Goal"
ZH = {
    "fillers": ["继续", "接着做", "继续，有问题再问我"],
    "acks": ["好的。", "收到，马上改。", "明白。"],
}


def _edit(path: str) -> dict[str, Any]:
    args = {"path": path, "edits": [{"oldText": "old", "newText": "new"}]}
    return {"tool": "edit", "args": args, "result": f"Successfully replaced 1 block(s) in {path}."}


CHINESE: list[dict[str, Any]] = [
    {
        "family": "chinese",
        "name": "zh-ticket-export",
        **ZH,
        "turns": [
            {"user": "帮我给公司内部的工单系统写个命令行工具，能按状态把工单导出成 Excel。"},
            {"assistant": "好的。先看一下现有的接口，导出用 openpyxl 或者 xlsxwriter 都可以。"},
            {"user": "pandas 就别引进来了，依赖越少越好。"},
            {"user": "另外，导出来的时间一律按北京时间显示，财务那边看不懂 UTC。"},
            _edit("ticket_export/cli.py"),
            {"user": "账号密码别写死在代码里，从环境变量读。"},
            {"log": 6000, "command": "pytest -q"},
            {"user": "那就用 openpyxl 吧，xlsxwriter 不能读已有的文件。"},
            _edit("ticket_export/excel.py"),
            {"log": 7000, "command": "pytest -q"},
            {"user": "可以了。接下来加一个 --since 参数，只导出某个日期之后的工单。"},
        ],
        "facts": [
            {
                "text": "帮我给公司内部的工单系统写个命令行工具，能按状态把工单导出成 Excel。",
                "kind": "goal",
                "section": G,
            },
            {"text": "pandas 就别引进来了，依赖越少越好。", "kind": "constraint", "section": C},
            {"text": "导出来的时间一律按北京时间显示", "kind": "constraint", "section": C},
            {"text": "账号密码别写死在代码里，从环境变量读。", "kind": "constraint", "section": C},
            {"text": "那就用 openpyxl 吧", "kind": "decision", "section": D},
            {
                "text": "接下来加一个 --since 参数，只导出某个日期之后的工单。",
                "kind": "next_step",
                "section": N,
            },
        ],
    },
    {
        "family": "chinese",
        "name": "zh-vue-upgrade",
        **ZH,
        "turns": [
            {"user": "我们要把后台管理页面从 Vue 2 升级到 Vue 3，先从登录页开始弄。"},
            {"user": "样式必须跟现在一模一样，产品那边很在意这个。"},
            {"assistant": "明白。状态管理这块，可以用 Pinia，也可以继续用 Vuex 4。"},
            {"user": "状态管理就定 Pinia 了，Vuex 那套太啰嗦。"},
            _edit("src/views/Login.vue"),
            {"user": "api/ 目录下的接口定义请勿改动，后端还没排期。"},
            {"log": 9000, "command": "npm run test:unit"},
            {"user": "新写的组件统一用 <script setup>，别混着写。"},
            _edit("src/stores/user.ts"),
            {"log": 6500, "command": "npm run test:unit"},
            {"user": "登录页没问题了。下一步把注册页也迁过去，流程跟登录页一样。"},
        ],
        "facts": [
            {
                "text": "我们要把后台管理页面从 Vue 2 升级到 Vue 3，先从登录页开始弄。",
                "kind": "goal",
                "section": G,
            },
            {"text": "样式必须跟现在一模一样", "kind": "constraint", "section": C},
            {"text": "api/ 目录下的接口定义请勿改动", "kind": "constraint", "section": C},
            {
                "text": "新写的组件统一用 <script setup>，别混着写。",
                "kind": "constraint",
                "section": C,
            },
            {"text": "状态管理就定 Pinia 了", "kind": "decision", "section": D},
            {
                "text": "下一步把注册页也迁过去，流程跟登录页一样。",
                "kind": "next_step",
                "section": N,
            },
        ],
    },
    {
        "family": "chinese",
        "name": "zh-rate-limit",
        **ZH,
        "turns": [
            {"user": "给订单服务加一个限流中间件，每个用户每秒最多 10 个请求，超了返回 429。"},
            {"assistant": "好的。实现上可以用令牌桶，也可以用滑动窗口计数。"},
            {"user": "只能用标准库，第三方包一个都不要加。"},
            {"user": "我觉得令牌桶更合适，突发流量能扛一下，就它了。"},
            _edit("internal/middleware/ratelimit.go"),
            {"log": 8000, "command": "go test ./..."},
            {"user": "日志格式要跟现有的保持一致，都打 JSON。"},
            {"user": "还有，测试覆盖率不能低于 80%，CI 会卡。"},
            {"log": 10000, "command": "go test -cover ./..."},
            {"user": "好，然后写个压测脚本，看看单机 QPS 能到多少。"},
        ],
        "facts": [
            {
                "text": "给订单服务加一个限流中间件，每个用户每秒最多 10 个请求，超了返回 429。",
                "kind": "goal",
                "section": G,
            },
            {"text": "只能用标准库，第三方包一个都不要加。", "kind": "constraint", "section": C},
            {"text": "日志格式要跟现有的保持一致，都打 JSON。", "kind": "constraint", "section": C},
            {"text": "测试覆盖率不能低于 80%", "kind": "constraint", "section": C},
            {"text": "我觉得令牌桶更合适", "kind": "decision", "section": D},
            {
                "text": "然后写个压测脚本，看看单机 QPS 能到多少。",
                "kind": "next_step",
                "section": N,
            },
        ],
    },
]
