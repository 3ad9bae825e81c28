"""The model's small bilingual lexicon: the word knowledge every stage shares.

An LLM learns which words mean the same from billions of sentences; this model
is *told*, in a few readable lists:

- `SYNONYMS`: groups of English and Chinese words that name one idea
  ("weather", "forecast", "天气"). `concept("forecast") == concept("天气")`.
- `STOPWORDS`: words that carry no topic ("the", "please", "的", "一下").
- `GENERIC`: words that appear in almost every tool ("get", "data", "value"):
  they count for little when ranking tools.
- Small talk, negation and number words for `selection` and `extraction`.

A word the lexicon does not know still matches itself (and its stem), so a
tool described with the user's own words is always found.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from wirelab.offline_model.normalize import stem


def _words(text: str) -> frozenset[str]:
    """The words of a whitespace-separated list."""
    return frozenset(text.split())


_GROUPS = """
weather forecast temperature rain raining pour sunny snow wind humidity climate 天气 气温 温度 下雨 晴 预报 雨
convert conversion exchange change 换 换成 兑换 转换 折合 换算
currency money cash rate 货币 汇率 钱
search find look lookup query 搜索 查找 查询 查 搜 找
send email mail message 发送 发 邮件 消息 短信
book booking reserve reservation 预订 预定 订
flight plane fly airline takeoff depart departed landed 航班 机票 飞机 飞 起飞 降落
hotel room stay accommodation lodging sleep motel hostel 酒店 宾馆 住宿 房间 住
restaurant dining eat food meal 餐厅 饭店 吃 餐馆 美食
order purchase 订单 购买
status tracking 状态 跟踪 物流
remind reminder alarm alert ping notify 提醒 闹钟 叫我
timer countdown 计时器 倒计时 计时
note memo 笔记 备忘 备忘录 记录
list 清单 列表
add append insert plus sum total 添加 加 加入 增加 加上
remove delete drop 删除 移除 去掉
create make new 创建 新建 建立
update edit modify 更新 修改 编辑
cancel 取消
translate translation 翻译
language 语言
time clock hour 时间 几点 钟
date day calendar 日期 日子 哪天
schedule meeting appointment event 日程 会议 约会 安排 预约
price cost 价格 多少钱 价钱 费用
stock share shares ticker quote quotes market 股票 股价 报价 股市
thermostat heating heater degree degrees 暖气 空调 调温
workout exercise run running jog jogging training gym 锻炼 跑步 运动 健身
news headline 新闻 头条
music song songs tune tunes jazz play 音乐 歌 歌曲 播放 听
movie film 电影
cast actor actors actress starring star stars featuring acted 主演 演员
adult adults person persons people guest guests passenger passengers man men woman women 人 位 乘客
child children kid kids 孩子 儿童
city town 城市
country nation 国家
distance far 距离 多远
route navigate navigation 路线 导航
calculate compute calculation 计算 算
multiply multiplication product 乘 乘以 乘法
volume loud loudness louder quieter 音量 声音 大声
divide division quotient 除 除以 除法
sequence series 序列 数列
area 面积
sum 总和 合计 求和
average mean 平均
area 面积
population 人口
user account 用户 账户 账号
file document 文件 文档
weight 重量
length 长度
volume 体积
speed velocity 速度
recipe cook cooking 菜谱 食谱 做法
train rail railway 火车 高铁
bus 公交 巴士
car vehicle 汽车 车
taxi ride cab 出租车 打车 叫车 网约车 专车
ship shipping deliver delivery courier 寄 寄送 邮寄 快递 投递 发货
parcel package packet 包裹 邮包
ticket 票 门票
payment pay 支付 付款
refund 退款
invoice bill 发票 账单
customer client 客户 顾客
product item 产品 商品
inventory 库存
light lamp 灯
bedroom 卧室 睡房
kitchen 厨房
living 客厅 起居室
office study 办公室 书房
shopping shop buy 购物 买
unit 单位
celsius 摄氏
fahrenheit 华氏
kilometer kilometre km 公里 千米
mile 英里
meter metre 米
kilogram kg 公斤 千克
pound lb 磅
euro eur 欧元
dollar usd 美元
yen jpy 日元
yuan rmb cny 人民币 元
pound gbp 英镑
address 地址
phone 电话
map 地图
photo picture image 照片 图片
command cmd shell terminal console prompt commandline 命令 终端 命令行
computer pc laptop desktop machine 电脑 计算机 笔记本
drive disk folder directory 磁盘 硬盘 文件夹 目录
read 读 阅读
write 写
open 打开
close 关 关闭
start begin 开始 启动
stop end 停止 结束
today 今天
tomorrow 明天
yesterday 昨天
"""

STOPWORDS = _words(
    """
分别 各自 一起 a an the and or but if then else of to in on at for from by with without into onto
about as is are was were be been being am do does did done have has had having will would shall
should can could may might must i me my mine we us our you your yours he she it its they them their
this that these those there here what which who whom whose when where why how please kindly let just
also any some all each every only than too very so up out over again now want need like know tell
show give me'd i'd i'm i've i'll we're we've we'd you're they're it's what's
under above below between within during after before
through across around against per via until upon among beyond toward towards
的 了 吗 呢 吧 啊 我 你 他 她 它 我们 你们 请 帮 帮我 一下 是 在
和 与 把 给 要 想 能 可以 什么 怎么 怎么样 多少 哪 哪个 哪里 一个 这个 那个 就 都 也 还 又 很 有
没有 会 让 到 从 对 吗 么 呀
"""
)

GENERIC = _words(
    """
get set fetch retrieve obtain return returns find calculate compute given specific value values data
information info details detail result results number numbers based using use function tool provide
provides api call name type specified specify optional default list check determine make perform run
current latest controller manager handler helper service services client util utils
"""
)

SMALL_TALK = _words(
    """
hi hello hey thanks thank thx cheers bye goodbye morning evening night ok okay cool great nice
awesome lol haha yes no sure welcome sorry 你好 您好 嗨 谢谢 多谢 感谢 再见 拜拜 好的 早上好 晚上好
晚安 哈哈 不客气 没事 辛苦 辛苦了 聊聊 聊天 随便聊聊 心情 好 不错 随便 开心 高兴
"""
)

NEGATIONS = _words(
    """
don't dont do not never no without stop avoid 不要 别 不用 不必 无需 不需要 甭
"""
)

ACTION_WORDS = _words(
    """
get find search look check show tell give send book reserve convert calculate compute add remove
delete create make set update cancel translate play open close start stop schedule remind order buy
list read write fetch retrieve estimate predict plan count sort compare analyze analyse generate
track measure 查 查询 查找 搜索 发送 发 预订 订 换 兑换 计算 添加 删除 创建 设置 更新 取消 翻译 播放
打开 关闭 提醒 告诉 看看 帮 给 列出 算 估算 比较 安排 记 记录
"""
)

TOPIC_VERBS = _words(
    """
translate convert book reserve play cancel remind order buy send track schedule delete remove compare
predict estimate analyze analyse 翻译 兑换 换 预订 订 播放 取消 提醒 发送 删除 比较 估算
"""
)  # verbs that say what a tool is for ("translate_text" is about translating), unlike get or set

COLORS = _words(
    """
red orange yellow green blue purple violet pink brown black white gray grey cyan magenta teal navy
indigo beige turquoise maroon gold silver crimson scarlet
红 橙 黄 绿 蓝 紫 粉 棕 黑 白 灰 红色 橙色 黄色 绿色 蓝色 紫色 粉色 棕色 黑色 白色 灰色 金色 银色
"""
)  # the basic colour terms: what a `color` parameter takes
PLANETS = _words(
    """
mercury venus earth mars jupiter saturn uranus neptune pluto moon
水星 金星 地球 火星 木星 土星 天王星 海王星 冥王星 月球
"""
)
CLOSED_CLASSES = {"color": COLORS, "colour": COLORS, "颜色": COLORS, "planet": PLANETS, "行星": PLANETS}

EN_NUMBERS = {
    word: n
    for n, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
ROMAN = re.compile(r"(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})")  # a numeral of a name: "Leo XIII", "Rocky II"
EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}


@lru_cache(maxsize=1)
def _concepts() -> dict[str, str]:
    """Each known word (and its stem) -> the first word of its group, the concept's name."""
    table: dict[str, str] = {}
    for line in _GROUPS.strip().splitlines():
        group = line.split()
        for word in group:
            table.setdefault(word, group[0])
            table.setdefault(stem(word), group[0])
    return table


@lru_cache(maxsize=65536)
def concept(word: str) -> str:
    """The concept a (case-folded) word names: its group's first word, else its own stem."""
    known = _concepts()
    return known.get(word) or known.get(stem(word)) or stem(word)


def known(word: str) -> bool:
    """Whether the lexicon knows `word` (or its stem) as a topic word."""
    return word in _concepts() or stem(word) in _concepts()


WORDS = Path(__file__).resolve().parent / "data" / "words.tsv"


@lru_cache(maxsize=1)
def _word_classes() -> tuple[frozenset[str], dict[str, str]]:
    """The words that are only verbs or adverbs, and plural nouns with their singular, from
    data/words.tsv (LemmInflect's lemma table, MIT; written by scripts/make_word_classes.py)."""
    actions: set[str] = set()
    plurals: dict[str, str] = {}
    section = ""
    for line in WORDS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line:
            continue
        if line.startswith("["):
            section = line
        elif section == "[action]":
            actions.add(line)
        else:
            plural, _, lemma = line.partition("\t")
            plurals[plural] = lemma
    return frozenset(actions), plurals


def singular(word: str) -> str:
    """A noun in the singular, in the case it was written: "Tacos" -> "Taco", "geese" -> "goose".
    A plural the table lacks loses its ending by rule ("Zorbs" -> "Zorb").

    >>> singular("Tacos"), singular("geese"), singular("boxes"), singular("Zorbs"), singular("fish")
    ('Taco', 'goose', 'box', 'Zorb', 'fish')
    """
    lower = word.casefold()
    base = _word_classes()[1].get(lower) or _by_rule(lower)
    return word[: len(base)] if lower.startswith(base) else base


def _by_rule(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def names_a_thing(word: str) -> bool:
    """Whether an English word can be a noun or an adjective, so part of a name for a thing
    ("kayak", "wooden", "blue"), rather than only a verb or an adverb ("hurried", "wander",
    "quickly"). Words the table lacks (names, jargon, Chinese) can.

    >>> names_a_thing("kayak"), names_a_thing("hurried"), names_a_thing("Zanzibar")
    (True, False, True)
    """
    return word.casefold() not in _word_classes()[0]


def chinese_number(text: str) -> int:
    """A Chinese numeral as an integer: '十五' -> 15, '两千三百' -> 2300, '一二三' -> 123."""
    if not any(ch in ZH_UNITS for ch in text):
        return int("".join(str(ZH_DIGITS[ch]) for ch in text))
    total, section, digit = 0, 0, 0
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ("万", "亿"):
            total = (total + section + digit) * ZH_UNITS[ch]
            section, digit = 0, 0
        else:
            section += (digit or 1) * ZH_UNITS[ch]
            digit = 0
    return total + section + digit


def count_of(word: str) -> int | None:
    """A whole number written in digits, in English words up to twenty, or in Chinese numerals:
    '3', 'three', '三', '十五' -> 3, 3, 3, 15; None for anything else."""
    word = word.strip().casefold()
    if word.isdigit():
        return int(word)
    if word in EN_NUMBERS:
        return EN_NUMBERS[word]
    if word and all(ch in ZH_DIGITS or ch in ZH_UNITS for ch in word):
        return chinese_number(word)
    return None
