"""Subjects as data: the words that name one subject in any language, so that a value stated
in Chinese and changed in English is found to be about one thing.

A cue table (:mod:`.cues`) may hold, beside its cue kinds, entries ``"subject:<key>"`` (the
nouns that name a subject: ``queue``, ``消息队列``), ``"value:<key>"`` (well-known values of
it, which name the subject too: ``Kafka``, ``RabbitMQ``) and ``"part:<key>"`` (words that say
which part a value is for: ``staging``, ``生产环境``; two values for two parts are two facts).
Plugins add more through the same ``register_fact_cues`` hook. An ASCII phrase matches whole
words, case aside, a plural ``s`` allowed; any other phrase matches as a substring. The casual
change cues (``soft_change``: "nah", "go with", 就用), which count only with such a subject's
value, ship here too (:data:`EXTRAS`, added to the built-in tables of :mod:`.cues`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The prefixes of concept entries in a cue table.
CONCEPT_PREFIXES = ("subject:", "value:", "part:")

ENGLISH_SUBJECTS: dict[str, tuple[str, ...]] = {
    "queue": ("queue", "message queue", "message broker", "broker", "event bus", "mq"),
    "database": ("database", "db", "datastore", "data store", "rdbms"),
    "cache": ("cache", "caching", "cache layer"),
    "port": ("port", "listen port"),
    "timeout": ("timeout", "time out", "times out", "timed out", "deadline"),
    "retry": ("retry", "retries", "retried", "retry limit", "retry cap", "attempts"),
    "limit": ("limit", "cap", "quota", "ceiling", "maximum", "max"),
    "version": ("version", "release line"),
    "branch": ("branch", "default branch", "base branch", "main branch"),
    "region": ("region", "aws region", "zone", "availability zone", "data center"),
    "package_manager": ("package manager", "pkg manager"),
    "bundle": ("bundle", "bundle size", "app size", "binary size", "apk size"),
    "log": ("log", "logs", "logging", "log level"),
    "test": ("test", "tests", "test suite", "testing"),
    "deploy": ("deploy", "deployment", "deploys", "rollout", "release"),
    "ci": ("ci", "pipeline", "build pipeline", "ci pipeline"),
    "memory": ("memory", "ram", "heap"),
    "disk": ("disk", "storage", "volume"),
    "upload": ("upload", "uploads", "file size", "attachment"),
    "interval": ("interval", "polling", "poll", "frequency", "cron"),
    "session": ("session", "sessions", "login session"),
    "ttl": ("ttl", "expiry", "expiration", "expire", "expires", "retention"),
    "batch": ("batch", "batch size", "chunk", "chunks", "chunk size", "page size"),
    "replica": ("replica", "replicas", "instances", "pods", "workers", "worker count"),
    "concurrency": ("concurrency", "parallelism", "threads", "connections", "pool size"),
    "rate_limit": ("rate limit", "rate limiter", "throttle", "qps", "rps"),
    "language": ("language", "runtime", "interpreter"),
    "framework": ("framework", "web framework", "ui framework"),
    "orm": ("orm",),
    "http_client": ("http client", "http calls", "http library", "http requests", "fetching"),
    "config": ("config center", "configuration service", "config service", "feature flags"),
    "search": ("search", "search engine", "full-text search"),
    "storage_bucket": ("bucket", "object storage", "object store", "blob storage"),
    "auth": ("auth", "authentication", "login", "sso", "identity provider"),
    "monitoring": ("monitoring", "metrics", "dashboards", "alerting"),
    "font": ("font", "typeface", "font size"),
    "width": ("width", "max width"),
    "coverage": ("coverage", "test coverage"),
    "node_count": ("nodes", "node pool", "node count"),
    "instance_type": ("instance type", "machine type", "vm size"),
    "benchmark": ("benchmark", "benchmark index", "baseline index"),
}  # fmt: skip

ENGLISH_VALUES: dict[str, tuple[str, ...]] = {
    "queue": ("Kafka", "RabbitMQ", "SQS", "NATS", "Pulsar", "ActiveMQ", "Redpanda", "Kinesis"),
    "database": (
        "Postgres", "PostgreSQL", "MySQL", "MariaDB", "SQLite", "MongoDB", "CockroachDB",
        "DynamoDB", "Cassandra", "TiDB", "Oracle", "SQL Server", "ClickHouse",
    ),
    "cache": ("Redis", "Memcached", "Valkey", "KeyDB", "Varnish"),
    "package_manager": ("npm", "yarn", "pnpm", "bun", "pip", "poetry", "uv", "pipenv", "conda"),
    "ci": ("GitHub Actions", "GitLab CI", "Jenkins", "CircleCI", "Buildkite", "Travis"),
    "search": ("Elasticsearch", "OpenSearch", "Meilisearch", "Solr", "Typesense"),
    "monitoring": ("Prometheus", "Grafana", "Datadog", "New Relic", "Sentry"),
    "log": ("Loki", "ELK", "Splunk", "Fluentd", "CloudWatch"),
    "config": ("Apollo", "Nacos", "Consul", "etcd", "LaunchDarkly"),
    "orm": ("SQLAlchemy", "Prisma", "TypeORM", "Hibernate", "GORM", "Django ORM"),
    "http_client": ("axios", "fetch", "requests", "httpx", "aiohttp", "got", "ky", "OkHttp"),
    "deploy": ("Helm", "Kustomize", "ArgoCD", "Argo CD", "Flux", "Spinnaker"),
}  # fmt: skip

ENGLISH_PARTS: dict[str, tuple[str, ...]] = {
    "staging": ("staging", "stage", "pre-prod", "preprod", "uat", "qa env"),
    "prod": ("prod", "production", "live"),
    "dev": ("dev", "development", "local", "locally", "laptop", "laptops"),
    "test_env": ("test env", "test environment", "ci env"),
    "old": ("old", "legacy", "previous", "current cluster"),
    "new": ("new",),
    "ios": ("ios", "iphone", "ipad"),
    "android": ("android",),
    "web": ("web", "browser", "desktop"),
    "mobile": ("mobile", "app store", "phone", "phones"),
    "backend": ("backend", "back end", "server side", "server-side"),
    "frontend": ("frontend", "front end", "client side", "client-side", "ui"),
    "primary": ("primary", "master node", "writer"),
    "replica_part": ("replica", "read replica", "reader", "standby"),
}  # fmt: skip

CHINESE_SUBJECTS: dict[str, tuple[str, ...]] = {
    "queue": ("队列", "消息队列", "消息中间件"),
    "database": ("数据库", "库表"),
    "cache": ("缓存",),
    "port": ("端口",),
    "timeout": ("超时",),
    "retry": ("重试",),
    "limit": ("上限", "限制", "最大", "最多", "封顶"),
    "version": ("版本",),
    "branch": ("分支",),
    "region": ("区域", "地域", "机房", "可用区"),
    "package_manager": ("包管理", "包管理器"),
    "bundle": ("包体", "包大小", "安装包"),
    "log": ("日志",),
    "test": ("测试", "基准测试", "压测"),
    "deploy": ("部署", "发布", "上线"),
    "ci": ("流水线", "持续集成"),
    "memory": ("内存",),
    "disk": ("磁盘", "硬盘", "存储"),
    "upload": ("上传", "文件大小", "附件"),
    "interval": ("间隔", "频率", "轮询"),
    "session": ("会话",),
    "ttl": ("过期", "有效期", "保留", "保存"),
    "batch": ("批量", "批次", "每批", "分页", "每页", "页大小"),
    "replica": ("副本", "实例数", "实例", "节点数"),
    "concurrency": ("并发", "线程数", "连接池", "连接数"),
    "rate_limit": ("限流", "速率限制"),
    "language": ("语言", "运行时"),
    "framework": ("框架",),
    "http_client": ("http 客户端", "请求库", "网络请求"),
    "config": ("配置中心", "开关"),
    "search": ("搜索",),
    "storage_bucket": ("桶", "对象存储"),
    "auth": ("认证", "登录", "鉴权", "单点登录"),
    "monitoring": ("监控", "告警"),
    "font": ("字体", "字号"),
    "width": ("宽度",),
    "coverage": ("覆盖率",),
    "node_count": ("节点",),
    "instance_type": ("机型", "实例类型"),
    "benchmark": ("基准", "比较基准", "业绩基准", "基准指数"),
}  # fmt: skip

CHINESE_PARTS: dict[str, tuple[str, ...]] = {
    "staging": ("预发", "测试环境", "灰度"),
    "prod": ("生产", "线上", "正式环境"),
    "dev": ("开发环境", "本地"),
    "old": ("旧", "老"),
    "new": ("新",),
    "ios": ("苹果",),
    "android": ("安卓",),
    "web": ("网页", "桌面端", "浏览器", "web 端"),
    "mobile": ("移动端", "手机", "移动"),
    "backend": ("后端", "服务器端"),  # not 服务端: "服务端口" is a service port
    "frontend": ("前端", "客户端"),
    "primary": ("主库",),
    "replica_part": ("从库", "只读"),
}  # fmt: skip


def concept_entries(
    subjects: dict[str, tuple[str, ...]],
    values: dict[str, tuple[str, ...]],
    parts: dict[str, tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """The three tables as cue-table entries (``subject:queue`` → phrases…)."""
    out = {f"subject:{k}": v for k, v in subjects.items()}
    out.update({f"value:{k}": v for k, v in values.items()})
    out.update({f"part:{k}": v for k, v in parts.items()})
    return out


ENGLISH_CONCEPTS = concept_entries(ENGLISH_SUBJECTS, ENGLISH_VALUES, ENGLISH_PARTS)
CHINESE_CONCEPTS = concept_entries(CHINESE_SUBJECTS, {}, CHINESE_PARTS)

#: Casual changes (cue kind ``soft_change``): they count only when the sentence gives a subject
#: of these tables, or one in common with an earlier rule, another value of the same shape.
ENGLISH_SOFT = (
    "go with", "let's do", "rather", "bump to", "bump ... to", "can grow to", "can go up to",
    "raise to", "raise ... to", "lower to", "lower ... to", "back to", "nah", "meh",
    "let's go with", "go for", "we'll go with", "can be", "can hit", "up to", "give it",
)  # fmt: skip
CHINESE_SOFT = (
    "就用", "调到", "调成", "调整为", "调整到", "放宽到", "放宽至", "收紧到", "提高到", "提到",
    "降到", "降低到", "减到", "加到", "增加到", "升到", "换用", "用回", "那就",
)  # fmt: skip
EXTRAS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {**ENGLISH_CONCEPTS, "soft_change": ENGLISH_SOFT},
    "zh": {**CHINESE_CONCEPTS, "soft_change": CHINESE_SOFT, "mask": ("请求",)},  # 请求 ≠ 请
}


def with_extras(tables: Mapping[str, Mapping[str, Sequence[str]]]) -> dict[str, Any]:
    """The built-in cue tables with this module's entries added to their languages (phrases
    of a kind both have are joined)."""
    out: dict[str, Any] = {}
    for lang, table in tables.items():
        extra = EXTRAS.get(lang, {})
        out[lang] = {**table, **{k: (*table.get(k, ()), *v) for k, v in extra.items()}}
    return out


def is_concept(kind: object) -> bool:
    """Whether a table key is a concept entry: ``subject:``/``value:``/``part:`` and a key."""
    text = str(kind)
    return text.startswith(CONCEPT_PREFIXES) and bool(text.split(":", 1)[1].strip())


_WORD = re.compile(r"[a-z0-9][a-z0-9+#]*")


@dataclass(frozen=True)
class Hit:
    """One concept word found: where, which entry (``subject:queue``) and the words."""

    start: int
    end: int
    key: str


@dataclass(frozen=True)
class Concepts:
    """The merged concept entries of every table: :meth:`find` lists what a text names."""

    words: dict[tuple[str, ...], frozenset[str]]  # ASCII phrase → entry keys
    longest: int
    substrings: tuple[tuple[str, frozenset[str]], ...]  # other scripts, longest first
    memo: dict[str, tuple[Hit, ...]] = field(default_factory=dict, compare=False, repr=False)

    def find(self, text: str) -> tuple[Hit, ...]:
        """Every concept phrase in ``text``, longest match first at each place (memoized)."""
        found = self.memo.get(text)
        if found is None:
            if len(self.memo) > 8192:
                self.memo.clear()
            found = self.memo[text] = tuple(self._find(text))
        return found

    def _find(self, text: str) -> list[Hit]:
        lower = text.casefold()
        spans = list(_WORD.finditer(lower))
        tokens = [m.group(0) for m in spans]
        out: list[Hit] = []
        i = 0
        while i < len(tokens):
            for n in range(min(self.longest, len(tokens) - i), 0, -1):
                phrase = tuple(tokens[i : i + n])
                keys = self.words.get(phrase)
                if keys is None and phrase[-1].endswith("s"):  # a plural; never a part's
                    keys = self.words.get((*phrase[:-1], phrase[-1][:-1]))  # ("lives in")
                    keys = [k for k in keys or () if not k.startswith("part:")] or None
                if keys is not None:
                    out += [Hit(spans[i].start(), spans[i + n - 1].end(), k) for k in keys]
                    i += n - 1
                    break
            i += 1
        if not lower.isascii():
            taken: list[tuple[int, int]] = []
            for phrase, keys in self.substrings:
                at = lower.find(phrase)
                while at >= 0:
                    end = at + len(phrase)
                    if not any(at < b and a < end for a, b in taken):
                        taken.append((at, end))
                        out += [Hit(at, end, k) for k in keys]
                    at = lower.find(phrase, end)
        return out

    def subjects(self, text: str) -> frozenset[str]:
        """The subjects ``text`` names, by a noun or by a well-known value of it."""
        return self.keys(text, "subject:") | self.keys(text, "value:")

    def keys(self, text: str, prefix: str) -> frozenset[str]:
        """The concept keys of one kind (``subject``, ``value``, ``part``) ``text`` names;
        a value names its subject too (``value:queue`` gives ``queue``)."""
        return frozenset(
            h.key.split(":", 1)[1] for h in self.find(text) if h.key.startswith(prefix)
        )


def parts_differ(new: str, old: str, concepts: Concepts) -> bool:
    """Whether the two texts name different parts ("on the old cluster" / "on the new
    cluster", 主库 / 从库, staging / prod): values said of two parts are two facts."""
    mine, theirs = concepts.keys(new, "part:"), concepts.keys(old, "part:")
    return bool(mine - theirs) and bool(theirs - mine)


def subjects_differ(new: str, old: str, concepts: Concepts) -> bool:
    """Whether each text names a subject and none is shared ("Redis 换成 host-07" after
    "the staging API is api-stg…"): a value of the same shape for another subject."""
    mine, theirs = concepts.subjects(new), concepts.subjects(old)
    return bool(mine) and bool(theirs) and not (mine & theirs)


def per_parts(new: str, old: str, concepts: Concepts) -> bool:
    """Whether ``old`` gives values for two or more parts and ``new`` names none ("Staging
    API is X and prod API is Y", then "switch the cache to Z"): one new value never replaces
    a fact that holds a value per part."""
    return len(concepts.keys(old, "part:")) >= 2 and not concepts.keys(new, "part:")


def concepts_of(tables: Mapping[str, Mapping[str, Sequence[str]]]) -> Concepts:
    """One matcher for the concept entries of every table (language → entries)."""
    return build_concepts(
        (kind, phrases)
        for table in tables.values()
        for kind, phrases in table.items()
        if is_concept(kind)
    )


def build_concepts(entries: Iterable[tuple[str, Iterable[str]]]) -> Concepts:
    """One matcher for every ``(entry key, phrases)`` of every table."""
    words: dict[tuple[str, ...], set[str]] = {}
    other: dict[str, set[str]] = {}
    for key, phrases in entries:
        for phrase in phrases:
            lower = phrase.casefold()
            if lower.isascii():
                tokens = tuple(_WORD.findall(lower))
                if tokens:
                    words.setdefault(tokens, set()).add(key)
            else:
                other.setdefault(lower, set()).add(key)
    return Concepts(
        {w: frozenset(k) for w, k in words.items()},
        max((len(w) for w in words), default=1),
        tuple((p, frozenset(k)) for p, k in sorted(other.items(), key=lambda i: -len(i[0]))),
    )


#: A value said of every part: "INF everywhere", "in all environments", "所有环境".
_EVERY_PART = re.compile(
    r"\b(?:everywhere|across the board|in all (?:envs?|environments|builds))\b|所有环境|全部环境",
    re.IGNORECASE,
)


def every_part(text: str) -> bool:
    """Whether ``text`` says its value of every part ("log level INF everywhere")."""
    return _EVERY_PART.search(text) is not None


__all__ = [
    "CHINESE_CONCEPTS",
    "CONCEPT_PREFIXES",
    "ENGLISH_CONCEPTS",
    "EXTRAS",
    "Concepts",
    "Hit",
    "every_part",
    "build_concepts",
    "concepts_of",
    "is_concept",
    "parts_differ",
    "with_extras",
]
