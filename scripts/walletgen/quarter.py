"""One person's quarter (2026-04-13 .. 2026-07-12): the Alipay and WeChat Pay orders, scripted where it
matters (twins, late-night payments, refunds on both sides, top-ups, balance-funded decoys of the
same day and amount as a card row, another bank's card, a closed-before-payment order, a combined
method, a withdrawal fee), filled with seeded everyday purchases."""
from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from typing import List, Tuple

from walletgen.orders import (CREDIT, DEBIT, ICBC, Numbers, Order, Record, BankRow, alipay, alipay_row, booked, card_side,
                              purchase, wechat, wechat_row, WECHAT_CP, ALIPAY_CP)

T = dt.datetime
D = Decimal
START, END = dt.date(2026, 4, 13), dt.date(2026, 7, 12)
SHOPS = [("瑞幸咖啡(上海)有限公司", "生椰拿铁"), ("上海拉扎斯信息科技有限公司", "饿了么外卖订单"), ("美团平台商户", "美团订单-2026"),
         ("盒马鲜生", "盒马鲜生门店消费"), ("滴滴出行", "快车-行程费用"), ("浙江天猫技术有限公司", "天猫超市订单"),
         ("多一度（泉州）电子商务有限公司", "夏季T恤两件装"), ("上海公共交通卡股份有限公司", "交通卡充值"),
         ("中国石化销售股份有限公司上海石油分公司", "加油"), ("全家便利店", "便利店消费")]


def scripted(n: Numbers) -> List[Order]:
    o: List[Order] = []
    # Twins: two identical coffees on one day, both on the debit card (two links), and a
    # balance-funded decoy of the same day and amount (never a link).
    for h in (T(2026, 5, 8, 9, 12, 3), T(2026, 5, 8, 15, 40, 22)):
        o.append(purchase(n, "alipay", h, DEBIT, "瑞幸咖啡(上海)有限公司", "生椰拿铁", D("15.90")))
    o.append(purchase(n, "alipay", T(2026, 5, 8, 18, 2, 44), alipay("余额"), "瑞幸咖啡(上海)有限公司", "生椰拿铁", D("15.90")))
    for h in (T(2026, 6, 3, 12, 5, 10), T(2026, 6, 3, 12, 6, 31)):
        o.append(purchase(n, "wechat", h, CREDIT, "美团平台商户", "美团订单-午餐", D("23.50")))
    o.append(purchase(n, "alipay", T(2026, 6, 3, 19, 30, 0), alipay("花呗"), "美团平台商户", "美团订单-晚餐", D("23.50")))
    # Late-night payments: booked the next day on the debit statement; another bank's card pays
    # the same amount on that next day (never a link).
    o.append(purchase(n, "alipay", T(2026, 4, 20, 23, 47, 10), DEBIT, "浙江天猫技术有限公司", "天猫超市订单", D("88.00"), "日用百货"))
    o.append(purchase(n, "alipay", T(2026, 4, 21, 10, 3, 55), ICBC, "浙江天猫技术有限公司", "天猫超市订单", D("88.00"), "日用百货"))
    o.append(purchase(n, "wechat", T(2026, 5, 30, 23, 15, 33), DEBIT, "上海拉扎斯信息科技有限公司", "饿了么夜宵", D("46.80")))
    o.append(purchase(n, "wechat", T(2026, 5, 31, 8, 20, 1), ICBC, "上海拉扎斯信息科技有限公司", "饿了么早餐", D("46.80")))
    # A debit payment late on the last day: its bank row is in no statement yet.
    o.append(purchase(n, "alipay", T(2026, 7, 12, 23, 41, 9), DEBIT, "滴滴出行", "快车-行程费用", D("36.70"), "交通出行"))
    # Paid, goods not yet confirmed: the money has left.
    o.append(purchase(n, "alipay", T(2026, 5, 26, 14, 0, 2), DEBIT, "多一度（泉州）电子商务有限公司", "夏季T恤两件装", D("129.00"),
                      "服饰装扮", status="等待确认收货"))
    o += refunds(n)
    o += moves(n)
    # An order closed before it was paid: no money moved.
    closed = alipay_row(n, T(2026, 5, 20, 11, 11, 11), "日用百货", "浙江天猫技术有限公司", "天猫超市订单", "不计收支", D("49.00"), "", "交易关闭")
    o.append(Order("alipay", T(2026, 5, 20, 11, 11, 11), closed, [], warning="closed before it was paid"))
    # A combined method: the card paid an unknown part; the card bill shows its 95.00.
    mixed = alipay_row(n, T(2026, 6, 18, 20, 8, 45), "餐饮美食", "上海某某餐饮管理有限公司", "晚餐", "支出", D("100.00"),
                       "招商银行信用卡(5521)&红包", "交易成功")
    o.append(Order("alipay", T(2026, 6, 18, 20, 8, 45), mixed, [], warning="the bill does not say how much each part paid",
                   bank_only=[BankRow("card", dt.date(2026, 6, 18), D("-95.00"), "支付宝-上海某某餐饮管理有限", posted=dt.date(2026, 6, 19))]))
    # Money in.
    o.append(Order("alipay", T(2026, 4, 30, 20, 0, 0), alipay_row(n, T(2026, 4, 30, 20, 0, 0), "转账红包", "李雷", "转账", "收入", D("500.00"),
                                                                  "余额", "交易成功", peer_acct="lil***@163.com"),
                   [Record(alipay("余额"), D("500.00"))]))
    o.append(Order("alipay", T(2026, 6, 1, 3, 12, 0), alipay_row(n, T(2026, 6, 1, 3, 12, 0), "投资理财", "天弘基金管理有限公司",
                                                                 "余额宝-2026.05.31-收益发放", "不计收支", D("0.52"), "余额宝", "交易成功"),
                   [Record(alipay("余额宝"), D("0.52"))]))
    o.append(Order("wechat", T(2026, 5, 20, 13, 14, 0), wechat_row(n, T(2026, 5, 20, 13, 14, 0), "微信红包", "李雷", "/", "收入", D("8.88"), "/",
                                                                   "已存入零钱"), [Record(wechat("零钱"), D("8.88"))]))
    # Paid from 零钱 on a day and amount of a debit row (a decoy).
    o.append(purchase(n, "wechat", T(2026, 5, 26, 9, 0, 0), wechat("零钱"), "多一度（泉州）电子商务有限公司", "运费险", D("129.00")))
    return o


def refunds(n: Numbers) -> List[Order]:
    o = []
    # Alipay, debit card, refunded in full: the payment row turns 交易关闭 (its money did leave),
    # the refund is a row of its own (<order>_<suffix>); the bank shows 快捷支付 and 快捷退款.
    when = T(2026, 5, 15, 16, 20, 7)
    pay = purchase(n, "alipay", when, DEBIT, "浙江天猫技术有限公司", "蓝牙耳机", D("259.00"), "数码电器", status="交易关闭")
    o.append(pay)
    back = T(2026, 5, 18, 10, 2, 40)
    row = alipay_row(n, back, "退款", "浙江天猫技术有限公司", "退款-蓝牙耳机", "不计收支", D("259.00"), "招商银行储蓄卡(3816)", "退款成功",
                     order=pay.row["交易订单号"] + "_" + n.digits(10))
    o.append(Order("alipay", back, row, [Record(DEBIT, D("259.00"), bank=card_side("alipay", DEBIT, back, "浙江天猫技术有限公司", D("259.00"), True))]))
    # Alipay, credit card, refunded: a 消费 and a 退款 row on the card bill.
    when = T(2026, 6, 10, 21, 5, 0)
    o.append(purchase(n, "alipay", when, CREDIT, "多一度（泉州）电子商务有限公司", "运动鞋", D("399.00"), "服饰装扮", status="交易关闭"))
    back = T(2026, 6, 14, 9, 30, 0)
    row = alipay_row(n, back, "退款", "多一度（泉州）电子商务有限公司", "退款-运动鞋", "不计收支", D("399.00"), "招商银行信用卡(5521)", "退款成功",
                     order=o[-1].row["交易订单号"] + "_" + n.digits(10))
    o.append(Order("alipay", back, row, [Record(CREDIT, D("399.00"), bank=card_side("alipay", CREDIT, back, "多一度（泉州）电子商务有限公司", D("-399.00")))]))
    o[-1].records[0].bank.amount = D("399.00")
    # WeChat, debit card, refunded in full (the purchase keeps its row, 已全额退款).
    when = T(2026, 6, 20, 12, 40, 0)
    o.append(purchase(n, "wechat", when, DEBIT, "美团平台商户", "美团订单-火锅", D("58.00"), status="已全额退款"))
    back = T(2026, 6, 21, 8, 0, 5)
    row = wechat_row(n, back, "美团平台商户-退款", "美团平台商户", "美团订单-火锅", "收入", D("58.00"), "招商银行(3816)", "已全额退款")
    o.append(Order("wechat", back, row, [Record(DEBIT, D("58.00"), bank=card_side("wechat", DEBIT, back, "美团平台商户", D("58.00"), True))]))
    # WeChat, 零钱, partly refunded.
    when = T(2026, 6, 5, 19, 0, 0)
    o.append(purchase(n, "wechat", when, wechat("零钱"), "盒马鲜生", "盒马鲜生门店消费", D("120.00"), status="已退款(￥20.00)"))
    back = T(2026, 6, 6, 9, 0, 0)
    row = wechat_row(n, back, "盒马鲜生-退款", "盒马鲜生", "盒马鲜生门店消费", "收入", D("20.00"), "零钱", "已退款(￥20.00)")
    o.append(Order("wechat", back, row, [Record(wechat("零钱"), D("20.00"))]))
    return o


def moves(n: Numbers) -> List[Order]:
    o = []
    # 余额宝 from the debit card: two legs; the card leg is the bank's 快捷支付.
    when = T(2026, 4, 25, 9, 30, 0)
    row = alipay_row(n, when, "投资理财", "天弘基金管理有限公司", "余额宝-单次转入", "不计收支", D("2000.00"), "招商银行储蓄卡(3816)", "交易成功")
    o.append(Order("alipay", when, row, [Record(DEBIT, D("-2000.00"), "out", bank=card_side("alipay", DEBIT, when, "天弘基金管理有限公司", D("-2000.00"))),
                                         Record(alipay("余额宝"), D("2000.00"), "in")]))
    # 余额 into 余额宝: no bank row.
    when = T(2026, 5, 1, 8, 0, 0)
    row = alipay_row(n, when, "投资理财", "天弘基金管理有限公司", "余额宝-自动转入", "不计收支", D("300.00"), "余额", "交易成功")
    o.append(Order("alipay", when, row, [Record(alipay("余额"), D("-300.00"), "out"), Record(alipay("余额宝"), D("300.00"), "in")]))
    # 零钱充值 from the debit card.
    when = T(2026, 5, 2, 10, 10, 10)
    row = wechat_row(n, when, "零钱充值", "招商银行(3816)", "/", "/", D("500.00"), "招商银行(3816)", "充值完成")
    bank = BankRow("debit", booked(when), D("-500.00"), "快捷支付", WECHAT_CP, "财付通-微信零钱充值", "10:10:10")
    o.append(Order("wechat", when, row, [Record(DEBIT, D("-500.00"), "out", bank=bank), Record(wechat("零钱"), D("500.00"), "in")]))
    # 零钱 into 零钱通.
    when = T(2026, 5, 3, 7, 0, 0)
    row = wechat_row(n, when, "转入零钱通-来自零钱", "/", "/", "/", D("300.00"), "零钱", "支付成功")
    o.append(Order("wechat", when, row, [Record(wechat("零钱"), D("-300.00"), "out"), Record(wechat("零钱通"), D("300.00"), "in")]))
    # 零钱提现 to the debit card with a fee: 200.20 leaves 零钱, 200.00 reaches the card, 0.20 is the fee.
    when = T(2026, 6, 25, 18, 0, 0)
    row = wechat_row(n, when, "零钱提现", "招商银行(3816)", "/", "/", D("200.20"), "零钱", "提现已到账", note="服务费¥0.20")
    bank = BankRow("debit", dt.date(2026, 6, 25), D("200.00"), "银联代付", WECHAT_CP, "微信零钱提现", "18:02:11")
    o.append(Order("wechat", when, row, [Record(wechat("零钱"), D("-200.00"), "out"), Record(DEBIT, D("200.00"), "in", bank=bank),
                                         Record(wechat("零钱"), D("-0.20"), "fee", "服务费", "服务费")]))
    return o


def everyday(n: Numbers, rng: random.Random, start: dt.date, end: dt.date, per_day: float, taken: set) -> List[Order]:
    """Seeded purchases; a card's (day, amount) is never repeated (only the scripted twins are)."""
    methods = {"alipay": [(DEBIT, 4), (CREDIT, 3), (alipay("余额"), 1), (alipay("花呗"), 1), (alipay("余额宝"), 1)],
               "wechat": [(DEBIT, 4), (CREDIT, 3), (wechat("零钱"), 2), (wechat("零钱通"), 1)]}
    out = []
    d = start
    while d <= end:
        for platform in ("alipay", "wechat"):
            k = int(per_day) + (1 if rng.random() < per_day - int(per_day) else 0)
            for _ in range(k):
                account = rng.choices([a for a, _ in methods[platform]], [w for _, w in methods[platform]])[0]
                peer, item = rng.choice(SHOPS)
                while True:
                    amount = D(rng.randrange(300, 30000)) / 100
                    bank_day = d if account != DEBIT else d   # times below stay before 23:00
                    if (account, bank_day, amount) not in taken:
                        taken.add((account, bank_day, amount))
                        break
                when = T(d.year, d.month, d.day, rng.randrange(7, 23), rng.randrange(60), rng.randrange(60))
                out.append(purchase(n, platform, when, account, peer, item, amount))
        d += dt.timedelta(days=1)
    return out


def quarter() -> Tuple[List[Order], List[Order]]:
    """(Alipay orders, WeChat orders), each newest first."""
    n = Numbers(random.Random(2604))
    orders = scripted(n)
    taken = {(r.account, r.bank.date if r.bank else o.when.date(), -r.amount) for o in orders for r in o.records}
    orders += everyday(n, random.Random(260413), START, dt.date(2026, 7, 10), 0.45, taken)
    ali = sorted((o for o in orders if o.platform == "alipay"), key=lambda o: o.when, reverse=True)
    wx = sorted((o for o in orders if o.platform == "wechat"), key=lambda o: o.when, reverse=True)
    return ali, wx
