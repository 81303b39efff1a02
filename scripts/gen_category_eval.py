#!/usr/bin/env python3
"""Generate the category evaluation set: a year of a CMB debit account with a true category per row.

    python3 scripts/gen_category_eval.py --out DIR [--seed 27]

Writes DIR/cmb_year.tsv (UTF-8, tab-separated, header row), one row per transaction of
2025-01-01 .. 2025-12-31, oldest first, with the texts the CMB statement has:

  description  交易摘要 (快捷支付, 网联协议支付, 消费, 代发工资, 转账汇款, ...)
  note         客户摘要 (支付宝-<merchant>, 财付通-微信支付-<merchant>, a transfer's memo), cut at 20 characters
  counterparty 对手信息 (the channel company for wallet payments, the merchant for card payments,
               the employer, a person's name)

and the ground truth: `truth` (the ledger account a careful user books it to; empty for transfers
between own accounts), `group` (shop, shop-same-brand: a never-taught merchant sharing its brand with a
taught one of another category, salary, interest, person, own), `entity` (which merchant,
employer or person), `taught` (1 when the user categorised this row: about two rows per merchant,
employer and taught person in the first half), `half` (1 = Jan-Jun, 2 = Jul-Dec) and `text_taught`
(1 when this exact text was among the taught rows of its entity).

Merchants come in the spellings statements really show: the wallet channel's prefix, branches in
full- or half-width brackets (星巴克咖啡（杭州湖滨银泰店） / 星巴克(西湖店)), a city and legal-form
name on card payments (杭州星巴克咖啡有限公司), branch names without brackets, Latin names with
store numbers (STARBUCKS #1234 / STARBUCKS STORE 5678). About a third of the merchants appear only
in the second half: they were never taught, and a categoriser should leave them alone. Some people
are taught (rent to the landlord), some never (gifts to friends); one person shares a name with a
shop (王芳 / 王芳水果店). Deterministic: the same seed writes the same bytes. All names invented or
generic brands; amounts are exact two-decimal text.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import random

# (brand, short form or None, kind suffix, category). The short form is how some branches print it.
SHOPS = [
    ("星巴克", None, "咖啡", "Expenses:Food:Coffee"), ("瑞幸", None, "咖啡", "Expenses:Food:Coffee"),
    ("Manner", None, "咖啡", "Expenses:Food:Coffee"), ("挪瓦", None, "咖啡", "Expenses:Food:Coffee"),
    ("库迪", None, "咖啡", "Expenses:Food:Coffee"), ("Tims天好", None, "咖啡", "Expenses:Food:Coffee"),
    ("肯德基", None, "", "Expenses:Food:FastFood"), ("麦当劳", None, "", "Expenses:Food:FastFood"),
    ("汉堡王", None, "", "Expenses:Food:FastFood"), ("德克士", None, "", "Expenses:Food:FastFood"),
    ("必胜客", None, "", "Expenses:Food:FastFood"), ("华莱士", None, "", "Expenses:Food:FastFood"),
    ("塔斯汀", None, "中国汉堡", "Expenses:Food:FastFood"),
    ("海底捞", None, "火锅", "Expenses:Food:Restaurants"), ("西贝", None, "莜面村", "Expenses:Food:Restaurants"),
    ("外婆家", None, "", "Expenses:Food:Restaurants"), ("绿茶", None, "餐厅", "Expenses:Food:Restaurants"),
    ("太二", None, "酸菜鱼", "Expenses:Food:Restaurants"), ("呷哺呷哺", None, "", "Expenses:Food:Restaurants"),
    ("老乡鸡", None, "", "Expenses:Food:Restaurants"), ("和府", None, "捞面", "Expenses:Food:Restaurants"),
    ("新白鹿", None, "餐厅", "Expenses:Food:Restaurants"), ("望湘园", None, "", "Expenses:Food:Restaurants"),
    ("九毛九", None, "", "Expenses:Food:Restaurants"), ("眉州东坡", None, "酒楼", "Expenses:Food:Restaurants"),
    ("盒马", None, "鲜生", "Expenses:Food:Groceries"), ("永辉", None, "超市", "Expenses:Food:Groceries"),
    ("华润万家", None, "超市", "Expenses:Food:Groceries"), ("物美", None, "超市", "Expenses:Food:Groceries"),
    ("大润发", None, "", "Expenses:Food:Groceries"), ("钱大妈", None, "", "Expenses:Food:Groceries"),
    ("叮咚", None, "买菜", "Expenses:Food:Groceries"), ("朴朴", None, "超市", "Expenses:Food:Groceries"),
    ("山姆", None, "会员商店", "Expenses:Food:Groceries"), ("王芳", None, "水果店", "Expenses:Food:Groceries"),
    ("喜茶", None, "", "Expenses:Food:Drinks"), ("奈雪", None, "的茶", "Expenses:Food:Drinks"),
    ("蜜雪冰城", None, "", "Expenses:Food:Drinks"), ("茶百道", None, "", "Expenses:Food:Drinks"),
    ("古茗", None, "", "Expenses:Food:Drinks"), ("霸王茶姬", None, "", "Expenses:Food:Drinks"),
    ("沪上阿姨", None, "", "Expenses:Food:Drinks"),
    ("美团", None, "外卖", "Expenses:Food:Delivery"), ("饿了么", None, "", "Expenses:Food:Delivery"),
    ("全家", None, "便利店", "Expenses:Shopping:Convenience"), ("罗森", None, "便利店", "Expenses:Shopping:Convenience"),
    ("美宜佳", None, "便利店", "Expenses:Shopping:Convenience"), ("便利蜂", None, "", "Expenses:Shopping:Convenience"),
    ("滴滴", None, "出行", "Expenses:Transport:Taxi"), ("曹操", None, "出行", "Expenses:Transport:Taxi"),
    ("高德", None, "打车", "Expenses:Transport:Taxi"), ("T3", None, "出行", "Expenses:Transport:Taxi"),
    ("杭州地铁", None, "", "Expenses:Transport:PublicTransit"), ("中国石化", None, "加油站", "Expenses:Transport:Fuel"),
    ("中国石油", None, "加油站", "Expenses:Transport:Fuel"),
    ("淘宝", None, "", "Expenses:Shopping:Online"), ("天猫", None, "超市", "Expenses:Shopping:Online"),
    ("京东", None, "商城", "Expenses:Shopping:Online"), ("拼多多", None, "", "Expenses:Shopping:Online"),
    ("唯品会", None, "", "Expenses:Shopping:Online"), ("得物", None, "", "Expenses:Shopping:Online"),
    ("优衣库", None, "", "Expenses:Shopping:Clothing"), ("海澜之家", None, "", "Expenses:Shopping:Clothing"),
    ("李宁", None, "", "Expenses:Shopping:Clothing"), ("安踏", None, "", "Expenses:Shopping:Clothing"),
    ("小米", None, "之家", "Expenses:Shopping:Electronics"), ("苏宁", None, "易购", "Expenses:Shopping:Electronics"),
    ("老百姓", None, "大药房", "Expenses:Health:Pharmacy"), ("益丰", None, "大药房", "Expenses:Health:Pharmacy"),
    ("大参林", None, "", "Expenses:Health:Pharmacy"), ("一心堂", None, "", "Expenses:Health:Pharmacy"),
    ("国家电网", None, "", "Expenses:Housing:Energy"), ("华润燃气", None, "", "Expenses:Housing:Energy"),
    ("中国移动", None, "", "Expenses:Housing:Phone"), ("中国联通", None, "", "Expenses:Housing:Phone"),
    ("万达", None, "影城", "Expenses:Entertainment:Movies"), ("猫眼", None, "电影", "Expenses:Entertainment:Movies"),
    ("爱奇艺", None, "", "Expenses:Entertainment:Streaming"), ("腾讯", None, "视频", "Expenses:Entertainment:Streaming"),
    ("哔哩哔哩", None, "", "Expenses:Entertainment:Streaming"), ("大麦", None, "网", "Expenses:Entertainment:Events"),
    ("乐刻", None, "运动", "Expenses:PersonalCare:Fitness"), ("超级猩猩", None, "健身", "Expenses:PersonalCare:Fitness"),
    ("文峰", None, "美发", "Expenses:PersonalCare:HairAndBeauty"),
    ("携程", None, "旅行", "Expenses:Travel"), ("飞猪", None, "旅行", "Expenses:Travel"),
    ("如家", None, "酒店", "Expenses:Travel:Lodging"), ("汉庭", None, "酒店", "Expenses:Travel:Lodging"),
    ("全季", None, "酒店", "Expenses:Travel:Lodging"), ("亚朵", None, "酒店", "Expenses:Travel:Lodging"),
    ("东方航空", None, "", "Expenses:Travel:Flights"), ("新东方", None, "", "Expenses:Education"),
    ("瑞鹏", None, "宠物医院", "Expenses:Pets"),
]
# Never taught, and sharing the brand of a taught merchant of another category: a statement that
# prints only the brand (`美团(西湖店)`) cannot tell them apart, and a payee match on the brand is wrong.
SAME_BRAND_NEVER_TAUGHT = [
    ("美团", None, "买菜", "Expenses:Food:Groceries"), ("京东", None, "到家", "Expenses:Food:Groceries"),
    ("滴滴", None, "加油", "Expenses:Transport:Fuel"),
]
LATIN = [
    ("STARBUCKS", "Expenses:Food:Coffee"), ("APPLE.COM/BILL", "Expenses:Entertainment:Streaming"),
    ("NETFLIX.COM", "Expenses:Entertainment:Streaming"), ("SPOTIFY", "Expenses:Entertainment:Streaming"),
    ("UBER TRIP", "Expenses:Transport:Taxi"), ("UBER EATS", "Expenses:Food:Delivery"),
    ("AIRBNB", "Expenses:Travel:Lodging"), ("AGODA", "Expenses:Travel:Lodging"), ("BOOKING.COM", "Expenses:Travel:Lodging"),
    ("STEAM GAMES", "Expenses:Entertainment:Games"), ("IKEA", "Expenses:Home:Furniture"), ("COSTCO", "Expenses:Food:Groceries"),
]
CITIES = ["杭州", "上海", "北京", "南京", "苏州"]
DISTRICTS = ["湖滨银泰", "西湖", "滨江", "城西银泰", "龙湖天街", "万象城", "来福士", "武林", "黄龙", "钱江新城", "萧山",
             "下沙", "余杭", "静安", "徐汇", "人民广场", "新街口", "三里屯", "国贸", "观前街"]
PEOPLE_TAUGHT = [("李建国", "Expenses:Housing:Rent", "房租", -4200_00, -4200_00),
                 ("张秀英", "Expenses:Family:Parents", "生活费", -2000_00, -2000_00)]
PEOPLE_NEW = [("王芳", "Expenses:Gifts", ""), ("刘洋", "Expenses:Gifts", "生日"), ("陈静", "Expenses:Gifts", ""),
              ("杨磊", "Expenses:Gifts", "份子钱"), ("赵敏", "Expenses:Gifts", "")]
EMPLOYER = "杭州云帆网络科技有限公司"
AMOUNTS = {  # category prefix -> (min, max) yuan
    "Expenses:Food:Coffee": (15, 45), "Expenses:Food:FastFood": (20, 80), "Expenses:Food:Restaurants": (60, 600),
    "Expenses:Food:Groceries": (20, 400), "Expenses:Food:Drinks": (8, 35), "Expenses:Food:Delivery": (20, 120),
    "Expenses:Shopping:Convenience": (5, 60), "Expenses:Transport:Taxi": (12, 90), "Expenses:Transport:PublicTransit": (2, 9),
    "Expenses:Transport:Fuel": (200, 450), "Expenses:Shopping:Online": (15, 900), "Expenses:Shopping:Clothing": (99, 1200),
    "Expenses:Shopping:Electronics": (49, 4999), "Expenses:Health:Pharmacy": (10, 300), "Expenses:Housing:Energy": (50, 400),
    "Expenses:Housing:Phone": (39, 199), "Expenses:Entertainment": (15, 600), "Expenses:PersonalCare": (50, 500),
    "Expenses:Travel": (200, 3000), "Expenses:Education": (100, 3000), "Expenses:Pets": (80, 900), "Expenses:Home": (50, 2000),
}


def amount_for(rng: random.Random, category: str) -> int:
    for prefix, (lo, hi) in AMOUNTS.items():
        if category.startswith(prefix):
            return -(rng.randint(lo * 100, hi * 100))
    return -(rng.randint(1000, 50000))


def shop_variant(rng: random.Random, brand: str, kind: str, channel: str) -> tuple[str, str, str]:
    """(description, note, counterparty) of one payment at a shop, in one of the real spellings."""
    full = brand + kind
    city, district = rng.choice(CITIES), rng.choice(DISTRICTS)
    style = rng.randrange(5)
    if style == 0:
        name = f"{full}（{city}{district}店）"
    elif style == 1:
        name = f"{brand}({district}店)"
    elif style == 2:
        name = full
    elif style == 3:
        name = f"{full}{district}店"
    else:
        name = f"{full}【{district}】"
    if channel == "alipay":
        return rng.choice(["快捷支付", "网联协议支付"]), ("支付宝-" + name)[:20], "支付宝（中国）网络技术有限公司"
    if channel == "wechat":
        return rng.choice(["快捷支付", "银联快捷支付"]), ("财付通-微信支付-" + name)[:20], "财付通支付科技有限公司"
    company = f"{city}{full}{rng.choice(['有限公司', '餐饮管理有限公司', '商贸有限公司', ''])}"
    return "消费", "", company


def latin_variant(rng: random.Random, name: str) -> tuple[str, str, str]:
    n = rng.randint(100, 9999)
    style = rng.randrange(4)
    text = [f"{name} #{n}", f"{name} STORE {n}", name.title(), f"{name} {n} SINGAPORE"][style]
    return "消费", "", text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=27)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    shops = [("cn:" + b + k, b, k, c) for b, _, k, c in SHOPS] + [("latin:" + n, n, "", c) for n, c in LATIN]
    order = list(range(len(shops)))
    rng.shuffle(order)
    brands = {b for b, _, _, _ in SAME_BRAND_NEVER_TAUGHT}
    # About a third appear only in the second half (never taught); the brands that also name a
    # never-taught merchant below stay taught.
    never = {i for i in order[: len(shops) // 3] if shops[i][1] not in brands}
    hard = set(range(len(shops), len(shops) + len(SAME_BRAND_NEVER_TAUGHT)))
    shops += [("cn:" + b + k, b, k, c) for b, _, k, c in SAME_BRAND_NEVER_TAUGHT]
    never |= hard
    weights = [1.0 / (1 + (i % 17)) for i in range(len(shops))]
    rows = []
    day = dt.date(2025, 1, 1)
    while day.year == 2025:
        half = 1 if day.month <= 6 else 2
        active = [i for i in range(len(shops)) if half == 2 or i not in never]
        for _ in range(rng.choice([2, 3, 3, 4, 4, 5, 6])):
            i = rng.choices(active, weights=[weights[j] for j in active])[0]
            entity, brand, kind, category = shops[i]
            if entity.startswith("latin:"):
                desc, note, cp = latin_variant(rng, brand)
            else:
                desc, note, cp = shop_variant(rng, brand, kind, rng.choices(["alipay", "wechat", "card"], [45, 35, 20])[0])
            rows.append([day, amount_for(rng, category), desc, note, cp, 0, 0, "shop-same-brand" if i in hard else "shop", entity,
                         category, half])
        if day.day == 10:
            rows.append([day, rng.randint(18000_00, 18600_00), "代发工资", f"代发工资{day.year}年{day.month:02d}月", EMPLOYER,
                         0, 0, "salary", "salary", "Income:Salary", half])
            for name, cat, memo, lo, hi in PEOPLE_TAUGHT:
                rows.append([day, rng.randint(lo, hi), "转账汇款", memo, name, 1, 0, "person", "person:" + name, cat, half])
        if day.day == 21 and day.month % 3 == 0:
            rows.append([day, rng.randint(1_00, 30_00), "结息", "", "", 0, 0, "interest", "interest", "Income:Interest", half])
        if day.day == 25:
            rows.append([day, -rng.choice([1000_00, 2000_00, 3000_00]), "快捷支付", "支付宝-余额宝-转入", "支付宝（中国）网络技术有限公司",
                         0, 1, "own", "own:yuebao", "", half])
            rows.append([day, -rng.randint(1500_00, 6000_00), "转账汇款", "信用卡还款", "招商银行信用卡中心", 0, 1, "own", "own:card", "", half])
        if rng.random() < 0.08:
            name, cat, memo = rng.choice(PEOPLE_NEW if half == 2 else PEOPLE_NEW[1:])
            rows.append([day, -rng.choice([200_00, 500_00, 888_00, 1000_00]), "转账汇款", memo, name, 1, 0, "person", "person:" + name, cat, half])
        day += dt.timedelta(days=1)

    # The user's decisions: about two rows per merchant, employer and taught person in the first half.
    by_entity: dict[str, list[int]] = {}
    for k, r in enumerate(rows):
        if r[10] == 1 and r[7] != "own" and not (r[7] == "person" and r[8].split(":", 1)[1] not in [p[0] for p in PEOPLE_TAUGHT]):
            by_entity.setdefault(r[8], []).append(k)
    taught = set()
    for entity in sorted(by_entity):
        ks = by_entity[entity]
        taught.update(rng.sample(ks, min(2, len(ks))))
    taught_texts = {(rows[k][8], rows[k][3], rows[k][4]) for k in taught}

    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "cmb_year.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("id\tdate\tamount\tdescription\tnote\tcounterparty\tperson\town\tgroup\tentity\ttruth\ttaught\thalf\ttext_taught\n")
        for k, r in enumerate(rows):
            day, minor, desc, note, cp, person, own, group, entity, truth, half = r
            sign = "-" if minor < 0 else ""
            amount = f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"
            text_taught = 1 if (entity, note, cp) in taught_texts else 0
            f.write(f"{k + 1}\t{day.isoformat()}\t{amount}\t{desc}\t{note}\t{cp}\t{person}\t{own}\t{group}\t{entity}\t{truth}\t"
                    f"{1 if k in taught else 0}\t{half}\t{text_taught}\n")
    print(f"wrote {len(rows)} rows ({len(taught)} taught) to {path}")


if __name__ == "__main__":
    main()
