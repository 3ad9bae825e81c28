"""Write the template part of the corpus's binding section (assets/offline_model_corpus.json).

    .venv/bin/python scripts/grow_binding_corpus.py

Invented tools (`TOOLS`) and requests made from templates and fillers (`TEMPLATES`), English,
Chinese, and Chinese on these English tools, each with the arguments a careful annotator binds:
the kinds binding's fit is thin on (a city and its state, a from/to pair and a count, an enum
option written with a hyphen, a quote next to a code, optional labelled values, a quote after
"called" before a list, a code with a unit and a date). Deterministic: the rows replace the
ones it wrote before (`"made": "template"`). Written for the course, never from BFCL or the
eval set (tests check no four-word phrase is shared).
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.offline_model.training import CORPUS

MADE = "template"


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "made": MADE,
        "parameters": {"type": "object", "properties": props, "required": required},
    }


def _s(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


def _n(description: str, kind: str = "integer") -> dict[str, Any]:
    return {"type": kind, "description": description}


TOOLS = [
    _tool(
        "levy_tax",
        "Work out the sales tax owed on a purchase.",
        {
            "amount": _n("Purchase amount in dollars.", "number"),
            "state": _s("Two-letter US state code, e.g. 'NY'."),
            "city": _s("City of the purchase, optional."),
        },
        ["amount", "state"],
    ),
    _tool(
        "ferry_seats",
        "Reserve seats on a passenger ferry.",
        {
            "depart_port": _s("Port the ferry leaves from."),
            "arrive_port": _s("Port the ferry reaches."),
            "seats": _n("Number of seats."),
        },
        ["depart_port", "arrive_port"],
    ),
    _tool(
        "order_salad",
        "Order a salad from the deli.",
        {
            "base": _s("Main ingredient of the salad."),
            "diet": _s("Dietary style.", enum=["Gluten Free", "Low Carb", "Vegan"]),
        },
        ["base"],
    ),
    _tool(
        "subtitle_line",
        "Subtitle one line of dialogue.",
        {"line": _s("The words to subtitle."), "lang": _s("Language code, e.g. FR.")},
        ["line", "lang"],
    ),
    _tool(
        "hire_bike",
        "Hire a bicycle in a town.",
        {
            "town": _s("Town to hire it in."),
            "hours": _n("How many hours."),
            "helmets": _n("Number of helmets, optional."),
        },
        ["town", "hours"],
    ),
    _tool(
        "make_album",
        "Create a photo album.",
        {
            "title": _s("Title of the album."),
            "sections": {"type": "array", "items": {"type": "string"}, "description": "Section names."},
        },
        ["title"],
    ),
    _tool(
        "ship_sample",
        "Ship a lab sample by courier.",
        {
            "sample_code": _s("The sample's code."),
            "weight_g": _n("Weight in grams.", "number"),
            "ship_date": _s("Day to ship, YYYY-MM-DD."),
        },
        ["sample_code"],
    ),
    _tool(
        "measure_noise",
        "Measure the noise level indoors.",
        {"room": _s("Room to measure."), "minutes": _n("How long to listen, in minutes.")},
        [],
    ),
    _tool(
        "brew_tea",
        "Brew a pot of tea.",
        {
            "cups": _n("Number of cups."),
            "tea": _s("Kind of tea, optional."),
            "strength": _s("How strong.", enum=["mild", "strong"]),
        },
        ["cups"],
    ),
    _tool(
        "invoice_company",
        "Send an invoice to a company.",
        {
            "company": _s("Company name."),
            "billing_email": _s("Where the invoice is sent."),
            "total": _n("Invoice total in euros.", "number"),
        },
        ["company", "billing_email"],
    ),
    _tool(
        "order_flowers",
        "Order a bunch of flowers.",
        {"bouquet": _s("the bouquet wanted"), "card_text": _s("Words on the card.")},
        [],
    ),
    _tool(
        "search_photos",
        "Search stock photos.",
        {"subject": _s("What the photos show."), "limit": _n("How many photos to return.")},
        ["subject"],
    ),
    _tool(
        "league_fixtures",
        "Upcoming fixtures of a sports league.",
        {"league": _s("The league."), "season": _s("Season, e.g. 2025-26.")},
        ["league"],
    ),
    _tool(
        "rent_kayak",
        "Rent a kayak by the hour at a lake.",
        {
            "lake": _s("The lake to paddle on."),
            "hours": _n("Rental length in hours."),
            "guide": _s("Name of the guide who comes along, optional."),
        },
        ["lake"],
    ),
    _tool(
        "print_poster",
        "Print a poster from a saved design.",
        {
            "design": _s("Name of the saved design."),
            "copies": _n("Number of copies to print."),
            "paper": _s("Paper finish, e.g. matte or glossy."),
        },
        ["design"],
    ),
    _tool(
        "buy_supplies",
        "Buy office supplies.",
        {
            "item": _s("What to buy."),
            "quantity": _n("How many."),
            "unit_price": _n("Price of one, in yuan.", "number"),
        },
        ["item", "quantity", "unit_price"],
    ),
]

CITIES = [
    ("Boise", "Idaho", "ID"),
    ("Omaha", "Nebraska", "NE"),
    ("Fresno", "California", "CA"),
    ("Tulsa", "Oklahoma", "OK"),
    ("Spokane", "Washington", "WA"),
    ("Reno", "Nevada", "NV"),
    ("Dayton", "Ohio", "OH"),
    ("Savannah", "Georgia", "GA"),
    ("Duluth", "Minnesota", "MN"),
    ("Provo", "Utah", "UT"),
]
PORTS_EN = [
    ("Bergen", "Stavanger"),
    ("Split", "Ancona"),
    ("Piraeus", "Chania"),
    ("Helsinki", "Tallinn"),
    ("Kiel", "Oslo"),
    ("Naples", "Palermo"),
    ("Valletta", "Catania"),
    ("Rostock", "Trelleborg"),
]
PORTS_ZH = [
    ("烟台", "旅顺"),
    ("舟山", "宁波"),
    ("厦门", "金门"),
    ("海口", "北海"),
    ("汕头", "南澳"),
    ("蓬莱", "长岛"),
]
BASES = [
    ("quinoa", "Gluten Free", "gluten-free"),
    ("chicken", "Low Carb", "low-carb"),
    ("lentil", "Vegan", "vegan"),
    ("tuna", "Low Carb", "low-carb"),
    ("rice", "Gluten Free", "gluten-free"),
    ("chickpea", "Vegan", "vegan"),
]
LINES = [
    ("see you soon", "DE"),
    ("thank you", "JA"),
    ("good night", "ES"),
    ("where is the station", "IT"),
    ("happy birthday", "PT"),
    ("I am lost", "NL"),
    ("早上好", "KO"),
    ("谢谢", "FR"),
]
TOWNS = ["Utrecht", "Ghent", "Leiden", "Bruges", "Delft", "Aarhus", "Malmo", "Freiburg"]
TOWNS_ZH = ["大理", "丽江", "桂林", "阳朔", "婺源", "凤凰"]
ALBUMS = [
    ("Harbour Walk", "Dawn", "Dusk"),
    ("Grandma at 90", "Party", "Cake"),
    ("Alps 2026", "Ridge", "Valley"),
    ("First Garden", "Seeds", "Bloom"),
    ("海边一周", "日出", "渔船"),
    ("Road North", "Fjords", "Ferries"),
]
ROOMS = [
    ("nursery", "婴儿房"),
    ("workshop", "车间"),
    ("studio", "录音室"),
    ("basement", "地下室"),
    ("bedroom", "卧室"),
    ("office", "办公室"),
]
TEAS = [
    ("oolong", "乌龙"),
    ("jasmine", "茉莉花"),
    ("darjeeling", "普洱"),
    ("sencha", "龙井"),
    ("rooibos", "白毫"),
]
COMPANIES = [
    ("Orchard Labs", "ap@orchard.example"),
    ("Blue Kettle", "bills@kettle.example"),
    ("Nordwind", "finance@nordwind.example"),
    ("华光科技", "cw@huaguang.example"),
    ("青禾农业", "pay@qinghe.example"),
    ("远帆物流", "ar@yuanfan.example"),
]
FLOWER_TOWNS = [("Lille", "杭州"), ("Porto", "苏州"), ("Graz", "南京"), ("Seville", "成都")]
BOUQUETS = ["Morning Dew", "Spring Blush", "Velvet Night", "Sunny Meadow"]
SUBJECTS = [
    ("puppies", "小狗"),
    ("lighthouses", "灯塔"),
    ("bicycles", "自行车"),
    ("teapots", "茶壶"),
    ("kites", "风筝"),
]
LEAGUES = [("Eredivisie", "2025-26"), ("Serie A", "2024-25"), ("Ligue 1", "2026-27"), ("La Liga", "2023-24")]
LAKES = [("Lake Vesi", "青湖"), ("Lake Orla", "白沙湖"), ("Lake Tumi", "镜湖"), ("Lake Sarn", "碧水湖")]
FRIENDS = [("Priya", "小林"), ("Jonas", "阿梅"), ("Odile", "老周"), ("Kwame", "小唐")]
STAYS = [("Tartu", "黄山"), ("Kaunas", "泉州"), ("Turku", "桂林"), ("Bergamo", "大理")]
DESIGNS = [
    ("Harvest Moon", "秋月"),
    ("Blue Harbour", "蓝港"),
    ("Paper Cranes", "纸鹤"),
    ("Night Market", "夜市"),
]
SAMPLES = [
    ("BX-2291", 40, "2027-02-11"),
    ("QN-0087", 12.5, "2027-04-03"),
    ("TT-5150", 250, "2027-07-19"),
    ("RM-7733", 8, "2027-10-02"),
    ("KC-4410", 95, "2027-12-14"),
    ("LP-3018", 60, "2028-01-27"),
]

Row = tuple[str, str, dict[str, Any]]


def _tax() -> list[Row]:
    rows: list[Row] = []
    for k, (city, state, code) in enumerate(CITIES):
        amount = 20 + 15 * k
        rows += [
            (
                f"What tax do I owe on {amount} dollars spent in {city}, {state}?",
                "en",
                {"amount": amount, "state": code, "city": city},
            ),
            (f"Tax for a ${amount} purchase in {state}", "en", {"amount": amount, "state": code}),
            (
                f"在{state}的{city}买了{amount}美元的东西，税是多少",
                "zh",
                {"amount": amount, "state": code, "city": city},
            ),
        ]
    return rows


def _ferry() -> list[Row]:
    rows: list[Row] = []
    for k, (a, b) in enumerate(PORTS_EN):
        n = 2 + k % 4
        rows += [
            (
                f"{n} seats on the ferry from {a} to {b}",
                "en",
                {"depart_port": a, "arrive_port": b, "seats": n},
            ),
            (f"To {b} from {a} by ferry, please", "en", {"depart_port": a, "arrive_port": b}),
            (f"订{n}个从{a}到{b}的渡轮座位", "zh", {"depart_port": a, "arrive_port": b, "seats": n}),
        ]
    for k, (a, b) in enumerate(PORTS_ZH):
        n = 1 + k % 5
        rows += [
            (f"帮我订{n}张从{a}去{b}的渡轮票", "zh", {"depart_port": a, "arrive_port": b, "seats": n}),
            (f"到{b}的船，从{a}走", "zh", {"depart_port": a, "arrive_port": b}),
        ]
    return rows


def _salad() -> list[Row]:
    rows: list[Row] = []
    for base, diet, written in BASES:
        rows += [
            (f"I'd like a {written} {base} salad", "en", {"base": base, "diet": diet}),
            (f"One {base} salad, please", "en", {"base": base}),
            (f"A {base} salad, make it {written}", "en", {"base": base, "diet": diet}),
        ]
    return rows


def _subtitle() -> list[Row]:
    rows: list[Row] = []
    for k, (line, lang) in enumerate(LINES):
        rows += [
            (f"Subtitle '{line}' in {lang}", "en" if line.isascii() else "zh", {"line": line, "lang": lang}),
            (f"把“{line}”配成{lang}字幕", "zh", {"line": line, "lang": lang}),
        ]
        if k % 2:
            rows.append((f'In {lang}, put up the line "{line}"', "en", {"line": line, "lang": lang}))
    return rows


def _bike() -> list[Row]:
    rows: list[Row] = []
    for k, town in enumerate(TOWNS):
        hours, helmets = 2 + k % 5, 1 + k % 3
        rows += [
            (
                f"Hire a bike in {town} for {hours} hours with {helmets} helmets",
                "en",
                {"town": town, "hours": hours, "helmets": helmets},
            ),
            (f"A bicycle in {town}, {hours} hours", "en", {"town": town, "hours": hours}),
        ]
    for k, town in enumerate(TOWNS_ZH):
        hours, helmets = 3 + k % 4, 2 + k % 2
        rows += [
            (
                f"在{town}租一辆自行车，{hours}个小时，要{helmets}个头盔",
                "zh",
                {"town": town, "hours": hours, "helmets": helmets},
            ),
            (f"在{town}骑车{hours}小时", "zh", {"town": town, "hours": hours}),
        ]
    return rows


def _album() -> list[Row]:
    rows: list[Row] = []
    for title, first, second in ALBUMS:
        zh = not title.isascii()
        rows += [
            (
                f"Make an album called '{title}' with sections '{first}' and '{second}'",
                "zh" if zh else "en",
                {"title": title, "sections": [first, second]},
            ),
            (f"建一个叫“{title}”的相册", "zh", {"title": title}),
        ]
    return rows


def _sample() -> list[Row]:
    rows: list[Row] = []
    for code, grams, day in SAMPLES:
        rows += [
            (
                f"Ship sample {code}, {grams} g, on {day}",
                "en",
                {"sample_code": code, "weight_g": grams, "ship_date": day},
            ),
            (f"Courier the {grams} gram sample {code}", "en", {"sample_code": code, "weight_g": grams}),
            (
                f"{day}把样品{code}寄出去，重{grams}克",
                "zh",
                {"sample_code": code, "weight_g": grams, "ship_date": day},
            ),
        ]
    return rows


def _noise() -> list[Row]:
    rows: list[Row] = []
    for k, (room, zh) in enumerate(ROOMS):
        minutes = 5 + 5 * k
        rows += [
            (f"Noise level of the {room}", "en", {"room": room}),
            (f"Measure the noise for {minutes} minutes", "en", {"minutes": minutes}),
            (
                f"How loud is it, room {room}, listen {minutes} minutes",
                "en",
                {"room": room, "minutes": minutes},
            ),
            (f"测一下{zh}的噪音", "zh", {"room": zh}),
            ("Measure the noise level", "en", {})
            if k == 0
            else (f"听{minutes}分钟的噪音", "zh", {"minutes": minutes}),
        ]
    return rows


def _tea() -> list[Row]:
    rows: list[Row] = []
    for k, (tea, zh) in enumerate(TEAS):
        cups = 2 + k % 3
        rows += [
            (f"Brew {cups} cups of {tea} tea", "en", {"cups": cups, "tea": tea}),
            (f"{cups} cups, strong", "en", {"cups": cups, "strength": "strong"}),
            (f"Tea for {cups}, the kind: {tea}", "en", {"cups": cups, "tea": tea}),
            (f"泡{cups}杯{zh}茶", "zh", {"cups": cups, "tea": zh}),
            (f"Just {cups} cups of tea, mild", "en", {"cups": cups, "strength": "mild"}),
        ]
    return rows


def _invoice() -> list[Row]:
    rows: list[Row] = []
    for k, (company, mail) in enumerate(COMPANIES):
        total = 300 + 120 * k
        rows += [
            (
                f"Invoice {company} for {total} euros, send it to {mail}",
                "en",
                {"company": company, "billing_email": mail, "total": total},
            ),
            (
                f"给{company}（邮箱 {mail}）开一张{total}欧元的发票",
                "zh",
                {"company": company, "billing_email": mail, "total": total},
            ),
            (f"Bill {company} at {mail}", "en", {"company": company, "billing_email": mail}),
        ]
    return rows


def _flowers() -> list[Row]:
    rows: list[Row] = []
    for (town, zh), bouquet in zip(FLOWER_TOWNS, BOUQUETS, strict=True):
        rows += [
            (f"order flowers in {town}", "en", {}),
            (f"在{zh}订一束花", "zh", {}),
            (f"order the bouquet {bouquet}", "en", {"bouquet": bouquet}),
            (f"Flowers for Mum from {town}, please", "en", {}),
        ]
    return rows


def _photos() -> list[Row]:
    rows: list[Row] = []
    for k, (thing, zh) in enumerate(SUBJECTS):
        n = 3 + 2 * k
        rows += [
            (f"Photos of {thing}, at most {n}", "en", {"subject": thing, "limit": n}),
            (f"Stock photos of {n} {thing}", "en", {"subject": f"{n} {thing}"}),
            (f"找{zh}的照片，最多{n}张", "zh", {"subject": zh, "limit": n}),
            (f"Show {n} photos of {thing}", "en", {"subject": thing, "limit": n}),
        ]
    return rows


def _fixtures() -> list[Row]:
    rows: list[Row] = []
    for league, season in LEAGUES:
        rows += [
            (f"Fixtures of the {league}, please", "en", {"league": league}),
            (f"{league} fixtures for the {season} season", "en", {"league": league, "season": season}),
            (f"查一下{league}的赛程", "zh", {"league": league}),
        ]
    return rows


def _kayak() -> list[Row]:
    """Optional values stated (a count of hours, a guide after his word) and names said in passing
    (who recommends, where one stays) that fill nothing."""
    rows: list[Row] = []
    for k, ((lake, lake_zh), (friend, friend_zh), (stay, stay_zh)) in enumerate(
        zip(LAKES, FRIENDS, STAYS, strict=True)
    ):
        hours = 2 + k
        rows += [
            (f"Rent a kayak on {lake} for {hours} hours", "en", {"lake": lake, "hours": hours}),
            (f"A kayak on {lake}, {friend} told me it is calm there", "en", {"lake": lake}),
            (f"Kayak rental on {lake} with the guide {friend}", "en", {"lake": lake, "guide": friend}),
            (f"I'm staying in {stay}, get me a kayak on {lake}", "en", {"lake": lake}),
            (f"在{lake_zh}租一条皮划艇，租{hours}个小时", "zh", {"lake": lake_zh, "hours": hours}),
            (f"在{lake_zh}租皮划艇，是{friend_zh}推荐的", "zh", {"lake": lake_zh}),
            (f"在{lake_zh}租皮划艇，向导要{friend_zh}", "zh", {"lake": lake_zh, "guide": friend_zh}),
            (f"我住在{stay_zh}，想去{lake_zh}划皮划艇", "zh", {"lake": lake_zh}),
        ]
    return rows


def _poster() -> list[Row]:
    """A count of copies stated or not, a finish, and a person the poster is for, in passing."""
    rows: list[Row] = []
    for k, ((design, design_zh), (friend, friend_zh)) in enumerate(zip(DESIGNS, FRIENDS, strict=True)):
        copies = 3 + 4 * k
        rows += [
            (f"Print {copies} copies of the {design} poster", "en", {"design": design, "copies": copies}),
            (f"Print the {design} poster on glossy paper", "en", {"design": design, "paper": "glossy"}),
            (f"Print the {design} poster, it's a gift for {friend}", "en", {"design": design}),
            (f"把{design_zh}海报打印{copies}张", "zh", {"design": design_zh, "copies": copies}),
            (f"打印{design_zh}海报，送给{friend_zh}的", "zh", {"design": design_zh}),
            (f"打印{copies}张{design}海报", "zh", {"design": design, "copies": copies}),
        ]
    return rows


SUPPLIES = [
    ("三", 3, "本", "笔记本", 12),
    ("五", 5, "支", "钢笔", 8),
    ("两", 2, "把", "剪刀", 15),
    ("四", 4, "盒", "图钉", 6),
]


def _supplies() -> list[Row]:
    """A count in words with its measure word, and a price per piece after it: which number is which."""
    rows: list[Row] = []
    for word, n, measure, item, price in SUPPLIES:
        rows += [
            (
                f"买{word}{measure}{item}，每{measure}{price}元",
                "zh",
                {"item": item, "quantity": n, "unit_price": price},
            ),
            (
                f"{item}要{n}{measure}，单价{price}元",
                "zh",
                {"item": item, "quantity": n, "unit_price": price},
            ),
        ]
    return rows


def rows() -> list[dict[str, Any]]:
    """Every template request, with its tool and arguments."""
    made = [
        ("levy_tax", _tax()),
        ("ferry_seats", _ferry()),
        ("order_salad", _salad()),
        ("subtitle_line", _subtitle()),
        ("hire_bike", _bike()),
        ("make_album", _album()),
        ("ship_sample", _sample()),
        ("measure_noise", _noise()),
        ("brew_tea", _tea()),
        ("invoice_company", _invoice()),
        ("order_flowers", _flowers()),
        ("search_photos", _photos()),
        ("league_fixtures", _fixtures()),
        ("rent_kayak", _kayak()),
        ("print_poster", _poster()),
        ("buy_supplies", _supplies()),
    ]
    return [
        {"text": t, "language": lang, "tool": tool, "arguments": a, "made": MADE}
        for tool, found in made
        for t, lang, a in found
    ]


def main() -> None:
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    tools = [t for t in data["binding_tools"] if t.get("made") != MADE] + TOOLS
    requests = [r for r in data["binding_requests"] if r.get("made") != MADE] + rows()
    text = CORPUS.read_text(encoding="utf-8")
    head = text[: text.index('\n "binding_tools": ')]  # the part before the binding section, kept as written
    lines = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in requests)
    tools_line = json.dumps(tools, ensure_ascii=False)
    tail = f'\n "binding_tools": {tools_line},\n "binding_requests": [\n{lines}\n ]\n}}\n'
    CORPUS.write_text(head + tail, encoding="utf-8")
    print(f"{len(rows())} template requests on {len(TOOLS)} tools")


if __name__ == "__main__":
    main()
