#!/usr/bin/env python3
"""Generate deterministic Plaid sample files under Samples/plaid/.

Every sync page follows the shape of Plaid's own examples
(shared/reference/plaid/plaid_transactions_sync_response.example.json, current schema, or the
legacy 2022 example for `legacy_schema_2022`). Ids are derived from SHA-256 of a label, so
running this script twice writes identical bytes.

Each scenario folder holds page1.json, page2.json, ... (one /transactions/sync response each,
import them in order) and expected.json, the final ledger. The expected ledger of each scenario
is written BY HAND below (the `expect=[...]` lists name the transactions that must be active at
the end, reasoned from shared/reference/plaid/NOTES.md); the script also replays the pages with
a minimal model of Plaid's semantics (add/modify = upsert by transaction_id, removed = gone) and
refuses to write anything if the two disagree.

Usage: python3 scripts/gen_plaid_samples.py [output-dir]   (default: Samples/plaid next to scripts/)
"""
import base64
import hashlib
import os
import sys
from decimal import Decimal

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Samples", "plaid")
OUT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath(ROOT)

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def b62(label, n):
    """n base-62 characters derived from a label (Plaid ids are 37 such characters)."""
    out, counter = [], 0
    while len(out) < n:
        d = hashlib.sha256(f"{label}#{counter}".encode()).digest()
        for byte in d:
            if byte < 248:  # 248 = 4 * 62: unbiased
                out.append(B62[byte % 62])
                if len(out) == n:
                    break
        counter += 1
    return "".join(out)


def pid(label):
    return b62("id:" + label, 37)


def cursor(label):
    raw = b""
    k = 0
    while len(raw) < 84:
        raw += hashlib.sha256(f"cursor:{label}:{k}".encode()).digest()
        k += 1
    return base64.b64encode(raw[:84]).decode()


def request_id(label):
    return b62("req:" + label, 15)


class Num:
    """A JSON number written exactly as `text`."""

    def __init__(self, text):
        self.text = text


def plaid_number(value):
    """Decimal -> JSON number text the way Plaid prints doubles (72.1, 110, -2450, 0.3)."""
    d = Decimal(value)
    s = format(d.normalize(), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return Num(s)


def dumps(v, indent=0):
    pad = "  " * indent
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, Num):
        return v.text
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        out = ['"']
        for ch in v:
            if ch == '"':
                out.append('\\"')
            elif ch == "\\":
                out.append("\\\\")
            elif ch == "\n":
                out.append("\\n")
            elif ord(ch) < 0x20:
                out.append("\\u%04x" % ord(ch))
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)
    if isinstance(v, list):
        if not v:
            return "[]"
        inner = ",\n".join("  " * (indent + 1) + dumps(x, indent + 1) for x in v)
        return "[\n" + inner + "\n" + pad + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        inner = ",\n".join("  " * (indent + 1) + dumps(k) + ": " + dumps(x, indent + 1) for k, x in v.items())
        return "{\n" + inner + "\n" + pad + "}"
    raise TypeError(type(v))


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(dumps(value) + "\n")


# --------------------------------------------------------------------------------------------
# The item and its two accounts (the same in every scenario, like one linked bank).

ITEM_ID = pid("item:first-platypus")
INSTITUTION_ID = "ins_109508"
INSTITUTION_NAME = "First Platypus Bank"
CHECKING = pid("account:checking")
CREDIT = pid("account:credit")

ACCOUNTS = {
    CHECKING: {
        "name": "Plaid Checking", "official_name": "Plaid Gold Standard 0% Interest Checking",
        "mask": "0000", "type": "depository", "subtype": "checking",
        "opening": Decimal("3120.55"), "limit": None,
    },
    CREDIT: {
        "name": "Plaid Credit Card", "official_name": "Plaid Diamond 12.5% APR Interest Credit Card",
        "mask": "3333", "type": "credit", "subtype": "credit card",
        "opening": Decimal("212.40"), "limit": Decimal("5000"),
    },
}


def entity(label):
    return b62("entity:" + label, 37)


def party(name, kind, website, logo, label, confidence="VERY_HIGH"):
    return {
        "name": name, "type": kind,
        "logo_url": logo, "website": website,
        "entity_id": entity(label), "confidence_level": confidence,
    }


def location(address=None, city=None, region=None, postal=None, lat=None, lon=None, store=None):
    return {
        "address": address, "city": city, "region": region, "postal_code": postal,
        "country": "US" if city else None,
        "lat": Num(lat) if lat else None, "lon": Num(lon) if lon else None, "store_number": store,
    }


def logo(slug):
    return f"https://plaid-merchant-logos.plaid.com/{slug}.png"


# Merchant catalogue: what Plaid's enrichment attaches to each kind of transaction.
M = {
    "gusto": dict(name="GUSTO PAY 240301 PPD ID: 9138864001", merchant="Gusto", channel="other", ttype="special",
                  pfc=("INCOME", "INCOME_WAGES", "VERY_HIGH"), website="gusto.com", logo=logo("gusto_1016"),
                  parties=[party("Gusto", "income_source", "gusto.com", logo("gusto_1016"), "gusto")], loc=location()),
    "zelle_rent": dict(name="Zelle payment to Dana Whitfield JPM99b8kq2fz", merchant=None, channel="other", ttype="special",
                       pfc=("RENT_AND_UTILITIES", "RENT_AND_UTILITIES_RENT", "MEDIUM"), website=None, logo=None,
                       parties=[party("Zelle", "payment_app", "zellepay.com", "https://plaid-counterparty-logos.plaid.com/zelle_1.png", "zelle", "HIGH")],
                       loc=location()),
    "pge": dict(name="PGANDE WEB ONLINE FEB 24", merchant="Pacific Gas and Electric", channel="online", ttype="special",
                pfc=("RENT_AND_UTILITIES", "RENT_AND_UTILITIES_GAS_AND_ELECTRICITY", "VERY_HIGH"), website="pge.com",
                logo=logo("pacific_gas_and_electric_1040"),
                parties=[party("Pacific Gas and Electric", "merchant", "pge.com", logo("pacific_gas_and_electric_1040"), "pge")], loc=location()),
    "wholefoods": dict(name="WHOLEFDS OAK 10234", merchant="Whole Foods Market", channel="in store", ttype="place",
                       pfc=("FOOD_AND_DRINK", "FOOD_AND_DRINK_GROCERIES", "VERY_HIGH"), website="wholefoodsmarket.com",
                       logo=logo("whole_foods_market_1084"),
                       parties=[party("Whole Foods Market", "merchant", "wholefoodsmarket.com", logo("whole_foods_market_1084"), "wholefoods")],
                       loc=location("230 Bay Pl", "Oakland", "CA", "94612", "37.811584", "-122.262211", "10234")),
    "uber_pending": dict(name="UBER *TRIP HELP.UBER.COM", merchant="Uber", channel="online", ttype="digital",
                         pfc=("TRANSPORTATION", "TRANSPORTATION_TAXIS_AND_RIDE_SHARES", "VERY_HIGH"), website="uber.com",
                         logo=logo("uber_1060"), parties=[party("Uber", "merchant", "uber.com", logo("uber_1060"), "uber")], loc=location()),
    "uber_posted": dict(name="Uber 072515 SF**POOL**", merchant="Uber", channel="online", ttype="digital",
                        pfc=("TRANSPORTATION", "TRANSPORTATION_TAXIS_AND_RIDE_SHARES", "VERY_HIGH"), website="uber.com",
                        logo=logo("uber_1060"), parties=[party("Uber", "merchant", "uber.com", logo("uber_1060"), "uber")], loc=location()),
    "coffee": dict(name="BLUE BOTTLE COFFEE 0123 OAKLAND CA", merchant="Blue Bottle Coffee", channel="in store", ttype="place",
                   pfc=("FOOD_AND_DRINK", "FOOD_AND_DRINK_COFFEE", "VERY_HIGH"), website="bluebottlecoffee.com",
                   logo=logo("blue_bottle_coffee_1112"),
                   parties=[party("Blue Bottle Coffee", "merchant", "bluebottlecoffee.com", logo("blue_bottle_coffee_1112"), "bluebottle")],
                   loc=location("300 Webster St", "Oakland", "CA", "94607", "37.797356", "-122.273951", "0123")),
    "farmers": dict(name="SQ *FARMERS MARKET", merchant=None, channel="in store", ttype="place",
                    pfc=("FOOD_AND_DRINK", "FOOD_AND_DRINK_GROCERIES", "LOW"), website=None, logo=None,
                    parties=[party("Square", "payment_terminal", "squareup.com", "https://plaid-counterparty-logos.plaid.com/square_1.png", "square", "HIGH")],
                    loc=location(city="Oakland", region="CA")),
    "farmers_fixed": dict(name="SQ *TEMESCAL FARMERS MARKET", merchant="Temescal Farmers Market", channel="in store", ttype="place",
                          pfc=("FOOD_AND_DRINK", "FOOD_AND_DRINK_GROCERIES", "HIGH"), website=None, logo=None,
                          parties=[party("Temescal Farmers Market", "merchant", None, None, "temescal", "HIGH"),
                                   party("Square", "payment_terminal", "squareup.com", "https://plaid-counterparty-logos.plaid.com/square_1.png", "square", "HIGH")],
                          loc=location("5300 Claremont Ave", "Oakland", "CA", "94618", "37.838924", "-122.251472")),
    "autopay": dict(name="CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224", merchant=None, channel="other", ttype="special",
                    pfc=("LOAN_PAYMENTS", "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT", "VERY_HIGH"), website=None, logo=None, parties=[], loc=location()),
    "atm": dict(name="ATM WITHDRAWAL 003421 03/11 5th AVE OAKLAND", merchant=None, channel="in store", ttype="place",
                pfc=("TRANSFER_OUT", "TRANSFER_OUT_WITHDRAWAL", "VERY_HIGH"), website=None, logo=None, parties=[],
                loc=location("410 5th Ave", "Oakland", "CA", "94607")),
    "airbnb": dict(name="AIRBNB * HMQ4ZXKT2E", merchant="Airbnb", channel="online", ttype="digital",
                   pfc=("TRAVEL", "TRAVEL_LODGING", "VERY_HIGH"), website="airbnb.com", logo=logo("airbnb_1018"),
                   parties=[party("Airbnb", "marketplace", "airbnb.com", logo("airbnb_1018"), "airbnb")], loc=location()),
    "rei": dict(name="REI #18 BERKELEY", merchant="REI", channel="in store", ttype="place",
                pfc=("GENERAL_MERCHANDISE", "GENERAL_MERCHANDISE_SPORTING_GOODS", "VERY_HIGH"), website="rei.com", logo=logo("rei_1237"),
                parties=[party("REI", "merchant", "rei.com", logo("rei_1237"), "rei")],
                loc=location("1338 San Pablo Ave", "Berkeley", "CA", "94702", "37.878921", "-122.295834", "18")),
    "rei_refund": dict(name="REI #18 BERKELEY RETURN", merchant="REI", channel="in store", ttype="place",
                       pfc=("GENERAL_MERCHANDISE", "GENERAL_MERCHANDISE_SPORTING_GOODS", "HIGH"), website="rei.com", logo=logo("rei_1237"),
                       parties=[party("REI", "merchant", "rei.com", logo("rei_1237"), "rei")],
                       loc=location("1338 San Pablo Ave", "Berkeley", "CA", "94702", "37.878921", "-122.295834", "18")),
    "apple": dict(name="APPLE.COM/BILL 866-712-7753 CA", merchant="Apple", channel="online", ttype="digital",
                  pfc=("ENTERTAINMENT", "ENTERTAINMENT_TV_AND_MOVIES", "MEDIUM"), website="apple.com", logo=logo("apple_1003"),
                  parties=[party("Apple", "merchant", "apple.com", logo("apple_1003"), "apple")], loc=location()),
    "fxfee": dict(name="FOREIGN TRANSACTION FEE", merchant=None, channel="other", ttype="special",
                  pfc=("BANK_FEES", "BANK_FEES_FOREIGN_TRANSACTION_FEES", "VERY_HIGH"), website=None, logo=None, parties=[], loc=location()),
    "amazon_pending": dict(name="AMAZON MKTPL*2K4RT7YU3", merchant="Amazon", channel="online", ttype="digital",
                           pfc=("GENERAL_MERCHANDISE", "GENERAL_MERCHANDISE_ONLINE_MARKETPLACES", "VERY_HIGH"), website="amazon.com",
                           logo=logo("amazon_1009"), parties=[party("Amazon", "marketplace", "amazon.com", logo("amazon_1009"), "amazon")], loc=location()),
    "amazon_posted": dict(name="Amazon.com*2K4RT7YU3 Amzn.com/bill WA", merchant="Amazon", channel="online", ttype="digital",
                          pfc=("GENERAL_MERCHANDISE", "GENERAL_MERCHANDISE_ONLINE_MARKETPLACES", "VERY_HIGH"), website="amazon.com",
                          logo=logo("amazon_1009"), parties=[party("Amazon", "marketplace", "amazon.com", logo("amazon_1009"), "amazon")], loc=location()),
    "nopa": dict(name="NOPA SAN FRANCISCO CA", merchant="Nopa", channel="in store", ttype="place",
                 pfc=("FOOD_AND_DRINK", "FOOD_AND_DRINK_RESTAURANT", "HIGH"), website="nopasf.com", logo=None,
                 parties=[party("Nopa", "merchant", "nopasf.com", None, "nopa", "HIGH")],
                 loc=location("560 Divisadero St", "San Francisco", "CA", "94117", "37.774929", "-122.437706")),
    "netflix": dict(name="NETFLIX.COM 866-579-7172 CA", merchant="Netflix", channel="online", ttype="digital",
                    pfc=("ENTERTAINMENT", "ENTERTAINMENT_TV_AND_MOVIES", "VERY_HIGH"), website="netflix.com", logo=logo("netflix_1103"),
                    parties=[party("Netflix", "merchant", "netflix.com", logo("netflix_1103"), "netflix")], loc=location()),
    "hilton_hold": dict(name="HILTON GARDEN INN EMERYVILLE AUTH HOLD", merchant="Hilton Garden Inn", channel="in store", ttype="place",
                        pfc=("TRAVEL", "TRAVEL_LODGING", "HIGH"), website="hilton.com", logo=logo("hilton_garden_inn_1215"),
                        parties=[party("Hilton Garden Inn", "merchant", "hilton.com", logo("hilton_garden_inn_1215"), "hilton")],
                        loc=location("1800 Powell St", "Emeryville", "CA", "94608", "37.838375", "-122.294416")),
    "payment": dict(name="PAYMENT - THANK YOU", merchant=None, channel="other", ttype="special",
                    pfc=("LOAN_PAYMENTS", "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT", "VERY_HIGH"), website=None, logo=None, parties=[], loc=location()),
    "lyft": dict(name="LYFT   *RIDE SUN 7PM", merchant="Lyft", channel="online", ttype="digital",
                 pfc=("TRANSPORTATION", "TRANSPORTATION_TAXIS_AND_RIDE_SHARES", "VERY_HIGH"), website="lyft.com", logo=logo("lyft_1061"),
                 parties=[party("Lyft", "merchant", "lyft.com", logo("lyft_1061"), "lyft")], loc=location()),
}


class Scenario:
    def __init__(self, name, legacy=False):
        self.name = name
        self.legacy = legacy
        self.txs = {}      # label -> current-schema transaction dict (latest version)
        self.pages = []    # list of page dicts (written as page<N>.json)
        self.cursor_n = 0
        self.last_cursor = None

    def tx(self, label, account, amount, date, m, pending=False, pending_of=None, auth=None, name=None):
        """A Plaid Transaction. `amount` in PLAID sign (positive = money out)."""
        c = dict(M[m])
        if name:
            c["name"] = name
        tid = pid(f"{self.name}:{label}")
        pending_id = self.txs[pending_of]["transaction_id"] if pending_of else None
        if self.legacy:
            t = {
                "account_id": account, "amount": plaid_number(amount), "iso_currency_code": "USD",
                "unofficial_currency_code": None,
                "category": LEGACY_CATEGORY[c["pfc"][1]][0], "category_id": LEGACY_CATEGORY[c["pfc"][1]][1],
                "check_number": None, "date": date, "datetime": None,
                "authorized_date": auth or date, "authorized_datetime": None,
                "location": c["loc"], "name": c["name"], "merchant_name": c["merchant"],
                "payment_meta": payment_meta(), "payment_channel": c["channel"], "pending": pending,
                "pending_transaction_id": pending_id, "account_owner": None, "transaction_id": tid,
                "transaction_code": None,
            }
        else:
            t = {
                "account_id": account, "account_owner": None, "amount": plaid_number(amount),
                "iso_currency_code": "USD", "unofficial_currency_code": None, "check_number": None,
                "counterparties": c["parties"], "date": date, "datetime": None,
                "authorized_date": auth or date, "authorized_datetime": None, "location": c["loc"],
                "name": c["name"], "merchant_name": c["merchant"],
                "merchant_entity_id": c["parties"][0]["entity_id"] if c["merchant"] and c["parties"] else None,
                "logo_url": c["logo"], "website": c["website"], "payment_meta": payment_meta(),
                "payment_channel": c["channel"], "pending": pending, "pending_transaction_id": pending_id,
                "personal_finance_category": {"primary": c["pfc"][0], "detailed": c["pfc"][1], "confidence_level": c["pfc"][2]},
                "personal_finance_category_icon_url": f"https://plaid-category-icons.plaid.com/PFC_{c['pfc'][0]}.png",
                "transaction_id": tid, "transaction_code": None, "transaction_type": c["ttype"],
            }
        self.txs[label] = t
        return t

    def modify(self, label, amount=None, m=None):
        """A modified version of an existing transaction (same id)."""
        t = dict(self.txs[label])
        if amount is not None:
            t["amount"] = plaid_number(amount)
        if m is not None:
            c = M[m]
            t["name"] = c["name"]
            t["merchant_name"] = c["merchant"]
            t["location"] = c["loc"]
            if not self.legacy:
                t["counterparties"] = c["parties"]
                t["merchant_entity_id"] = c["parties"][0]["entity_id"] if c["merchant"] and c["parties"] else None
                t["personal_finance_category"] = {"primary": c["pfc"][0], "detailed": c["pfc"][1], "confidence_level": c["pfc"][2]}
        self.txs[label] = t
        return t

    def removed(self, label):
        t = self.txs[label]
        if self.legacy:
            return {"transaction_id": t["transaction_id"]}
        return {"account_id": t["account_id"], "transaction_id": t["transaction_id"]}

    def page(self, added=(), modified=(), removed=(), has_more=False, status="HISTORICAL_UPDATE_COMPLETE"):
        self.cursor_n += 1
        request_cursor = self.last_cursor
        next_cursor = cursor(f"{self.name}:{self.cursor_n}")
        self.last_cursor = next_cursor
        added, modified, removed = list(added), list(modified), list(removed)
        if self.legacy:
            body = {"added": added, "modified": modified, "removed": removed,
                    "next_cursor": next_cursor, "has_more": has_more,
                    "request_id": request_id(f"{self.name}:{self.cursor_n}")}
        else:
            body = {"accounts": None, "added": added, "modified": modified, "removed": removed,
                    "next_cursor": next_cursor, "has_more": has_more,
                    "request_id": request_id(f"{self.name}:{self.cursor_n}"),
                    "transactions_update_status": status}
        self.pages.append({"body": body, "request_cursor": request_cursor})
        return body


def payment_meta():
    return {"by_order_of": None, "payee": None, "payer": None, "payment_method": None,
            "payment_processor": None, "ppd_id": None, "reason": None, "reference_number": None}


# Legacy (pre-2023) Plaid category hierarchy for the legacy scenario.
LEGACY_CATEGORY = {
    "FOOD_AND_DRINK_GROCERIES": (["Shops", "Supermarkets and Groceries"], "19047000"),
    "FOOD_AND_DRINK_COFFEE": (["Food and Drink", "Restaurants", "Coffee Shop"], "13005043"),
    "FOOD_AND_DRINK_RESTAURANT": (["Food and Drink", "Restaurants"], "13005000"),
    "TRANSPORTATION_TAXIS_AND_RIDE_SHARES": (["Travel", "Taxi"], "22016000"),
    "INCOME_WAGES": (["Transfer", "Payroll"], "21009000"),
    "RENT_AND_UTILITIES_GAS_AND_ELECTRICITY": (["Service", "Utilities", "Gas"], "18068002"),
    "GENERAL_MERCHANDISE_SPORTING_GOODS": (["Shops", "Sporting Goods"], "19046000"),
}


# --------------------------------------------------------------------------------------------
# Replay (self-check) and balances

def unwrap(page):
    return page["body"]


def replay(pages):
    active = {}
    for page in pages:
        body = unwrap(page)
        for t in body["added"] + body["modified"]:
            active[t["transaction_id"]] = t
        for r in body["removed"]:
            active.pop(r["transaction_id"], None)
    return active


def amount_of(t):
    return Decimal(t["amount"].text)


def balances(active, account):
    a = ACCOUNTS[account]
    posted = sum((amount_of(t) for t in active.values() if t["account_id"] == account and not t["pending"]), Decimal(0))
    pending = sum((amount_of(t) for t in active.values() if t["account_id"] == account and t["pending"] and amount_of(t) > 0), Decimal(0))
    if a["type"] == "credit":
        current = a["opening"] + posted           # positive = owed
        available = a["limit"] - current - pending
    else:
        current = a["opening"] - posted
        available = current - pending
    return {
        "available": plaid_number(available), "current": plaid_number(current),
        "iso_currency_code": "USD",
        "limit": plaid_number(a["limit"]) if a["limit"] is not None else None,
        "unofficial_currency_code": None,
    }


def account_object(account, active):
    a = ACCOUNTS[account]
    return {
        "account_id": account, "balances": balances(active, account), "mask": a["mask"], "name": a["name"],
        "official_name": a["official_name"], "subtype": a["subtype"], "type": a["type"],
    }


def fill_accounts(s):
    """Current schema: each page lists the accounts its transactions belong to, with the
    balances Plaid reported when the update was fetched (all pages of one update, i.e. up to
    the page with has_more false, report the same balances)."""
    if s.legacy:
        return
    active = {}
    update = []
    for page in s.pages:
        body = page["body"]
        update.append(body)
        for t in body["added"] + body["modified"]:
            active[t["transaction_id"]] = t
        for r in body["removed"]:
            active.pop(r["transaction_id"], None)
        if body["has_more"]:
            continue
        for b in update:
            ids = []
            for t in b["added"] + b["modified"] + b["removed"]:
                if t["account_id"] not in ids:
                    ids.append(t["account_id"])
            ids.sort(key=lambda a: [CHECKING, CREDIT].index(a))
            b["accounts"] = [account_object(a, active) for a in ids]
        update = []


def store_amount(t):
    d = -amount_of(t)
    return str(d.quantize(Decimal("0.01")))


def counterparty(t):
    if t.get("merchant_name"):
        return t["merchant_name"]
    for p in t.get("counterparties") or []:
        if p.get("name"):
            return p["name"]
    return None


def expected_entries(s, labels):
    out = []
    for label in labels:
        t = s.txs[label]
        out.append({
            "account_key": "plaid:" + t["account_id"], "date": t["date"], "amount": store_amount(t),
            "currency": "USD", "description": t["name"], "counterparty": counterparty(t),
            "pending": t["pending"], "external_ids": [t["transaction_id"]],
        })
    out.sort(key=lambda e: (e["account_key"], e["date"], e["external_ids"][0]))
    return out


def emit(s, expect, extra=None):
    fill_accounts(s)
    final = replay(s.pages)
    want = {s.txs[l]["transaction_id"] for l in expect}
    if set(final) != want:
        raise SystemExit(f"{s.name}: hand-written expectation {sorted(want)} != replay {sorted(final)}")
    for label in expect:  # the expected version is the latest one
        if final[s.txs[label]["transaction_id"]] is not s.txs[label]:
            raise SystemExit(f"{s.name}: {label} is not the latest version")
    folder = os.path.join(OUT, s.name)
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith(".json"):
            os.remove(os.path.join(folder, name))
    for n, page in enumerate(s.pages, 1):
        write(os.path.join(folder, f"page{n}.json"), page["body"])
    write(os.path.join(folder, "expected.json"), expected_entries(s, expect))
    for name, value in (extra or {}).items():
        write(os.path.join(folder, name), value)
    return final


# --------------------------------------------------------------------------------------------
# Scenarios

def plain_added():
    s = Scenario("plain_added")
    a = [
        s.tx("pay", CHECKING, "-2450.00", "2024-03-01", "gusto"),
        s.tx("rent", CHECKING, "1800.00", "2024-03-01", "zelle_rent"),
        s.tx("pge", CHECKING, "96.40", "2024-03-02", "pge", auth="2024-03-01"),
        s.tx("airbnb", CREDIT, "1234.12", "2024-03-01", "airbnb", auth="2024-02-28"),
    ]
    s.page(added=a, has_more=True)
    b = [
        s.tx("wholefoods", CHECKING, "84.32", "2024-03-03", "wholefoods", auth="2024-03-02"),
        s.tx("apple", CREDIT, "0.99", "2024-03-03", "apple"),
        s.tx("fxfee", CREDIT, "0.3", "2024-03-03", "fxfee"),
    ]
    s.page(added=b)
    emit(s, ["pay", "rent", "pge", "airbnb", "wholefoods", "apple", "fxfee"])


def pending_to_posted_split_pages():
    # Update 1: the pending ride. Update 2 (two pages): the posted ride (tip added) arrives on
    # page 2 with pending_transaction_id; the pending id is removed on page 3.
    s = Scenario("pending_to_posted_split_pages")
    s.page(added=[s.tx("coffee", CHECKING, "5.75", "2024-03-04", "coffee"),
                  s.tx("uber_p", CHECKING, "18.45", "2024-03-04", "uber_pending", pending=True)])
    s.page(added=[s.tx("uber", CHECKING, "21.45", "2024-03-05", "uber_posted", pending_of="uber_p", auth="2024-03-04")],
           has_more=True)
    s.page(removed=[s.removed("uber_p")])
    emit(s, ["coffee", "uber"])


def pending_removed_before_posted():
    # Update 2's first page removes the pending purchase; the posted one comes on the next page.
    s = Scenario("pending_removed_before_posted")
    s.page(added=[s.tx("amazon_p", CREDIT, "36.17", "2024-03-04", "amazon_pending", pending=True)])
    s.page(removed=[s.removed("amazon_p")], has_more=True)
    s.page(added=[s.tx("amazon", CREDIT, "36.17", "2024-03-06", "amazon_posted", pending_of="amazon_p", auth="2024-03-04")])
    emit(s, ["amazon"])


def posted_without_pending_id():
    # The bank sends no pending link: the posted dinner (tip: 42.50 -> 51.00, one day later)
    # arrives with pending_transaction_id null while the pending one is removed in the same update.
    s = Scenario("posted_without_pending_id")
    s.page(added=[s.tx("nopa_p", CREDIT, "42.50", "2024-03-05", "nopa", pending=True)])
    s.page(added=[s.tx("nopa", CREDIT, "51.00", "2024-03-06", "nopa", auth="2024-03-05")],
           removed=[s.removed("nopa_p")])
    emit(s, ["nopa"])


def hold_never_posts():
    s = Scenario("hold_never_posts")
    s.page(added=[s.tx("lyft", CREDIT, "14.20", "2024-03-06", "lyft"),
                  s.tx("hold", CREDIT, "150.00", "2024-03-06", "hilton_hold", pending=True)])
    s.page(added=[s.tx("coffee", CHECKING, "5.75", "2024-03-09", "coffee")], removed=[s.removed("hold")])
    emit(s, ["lyft", "coffee"])


def modified_posted():
    s = Scenario("modified_posted")
    s.page(added=[s.tx("farmers", CHECKING, "27.50", "2024-03-05", "farmers"),
                  s.tx("wholefoods", CHECKING, "84.32", "2024-03-05", "wholefoods")])
    s.page(modified=[s.modify("farmers", amount="27.05", m="farmers_fixed")])
    emit(s, ["farmers", "wholefoods"])


def removed_posted():
    s = Scenario("removed_posted")
    s.page(added=[s.tx("netflix", CREDIT, "15.49", "2024-03-05", "netflix"),
                  s.tx("atm", CHECKING, "60.00", "2024-03-05", "atm")])
    s.page(removed=[s.removed("netflix")])
    emit(s, ["atm"])


def identical_coffees():
    # Two genuine coffees, same shop, same day, same amount, different transaction ids, on two
    # pages of one update.
    s = Scenario("identical_coffees")
    s.page(added=[s.tx("coffee1", CHECKING, "5.75", "2024-03-05", "coffee"),
                  s.tx("pge", CHECKING, "96.40", "2024-03-05", "pge")], has_more=True)
    s.page(added=[s.tx("coffee2", CHECKING, "5.75", "2024-03-05", "coffee")])
    emit(s, ["coffee1", "coffee2", "pge"])


def refund():
    s = Scenario("refund")
    s.page(added=[s.tx("rei", CREDIT, "129.95", "2024-03-02", "rei", auth="2024-03-01")])
    s.page(added=[s.tx("rei_refund", CREDIT, "-129.95", "2024-03-11", "rei_refund", auth="2024-03-10")])
    emit(s, ["rei", "rei_refund"])


def legacy_schema_2022():
    # The pre-2024 shape (legacy_v1.197.3 example): no `accounts`, `category` arrays, no
    # personal_finance_category/counterparties, `removed` entries without account_id.
    s = Scenario("legacy_schema_2022", legacy=True)
    s.page(added=[s.tx("pay", CHECKING, "-2450.00", "2022-02-01", "gusto", name="GUSTO PAY 220201 PPD ID: 9138864001"),
                  s.tx("wholefoods_p", CHECKING, "84.32", "2022-02-02", "wholefoods", pending=True),
                  s.tx("rei", CREDIT, "129.95", "2022-02-02", "rei")])
    s.page(added=[s.tx("wholefoods", CHECKING, "84.32", "2022-02-03", "wholefoods", pending_of="wholefoods_p", auth="2022-02-02")],
           has_more=True)
    s.page(removed=[s.removed("wholefoods_p")], modified=[s.modify("rei", amount="119.95")])
    emit(s, ["pay", "wholefoods", "rei"])


def full_period():
    """Two weeks of one item (checking + credit card) in four updates (seven pages), plus a
    /transactions/get export and an /accounts/balance/get response taken at the end."""
    s = Scenario("full_period")
    # Update 1 (initial pull, three pages).
    s.page(added=[
        s.tx("pay", CHECKING, "-2450.00", "2024-03-01", "gusto"),
        s.tx("rent", CHECKING, "1800.00", "2024-03-01", "zelle_rent"),
        s.tx("airbnb", CREDIT, "1234.12", "2024-03-01", "airbnb", auth="2024-02-28"),
    ], has_more=True)
    s.page(added=[
        s.tx("pge", CHECKING, "96.40", "2024-03-02", "pge", auth="2024-03-01"),
        s.tx("rei", CREDIT, "129.95", "2024-03-02", "rei", auth="2024-03-01"),
        s.tx("wholefoods", CHECKING, "84.32", "2024-03-03", "wholefoods", auth="2024-03-02"),
    ], has_more=True)
    s.page(added=[
        s.tx("apple", CREDIT, "0.99", "2024-03-03", "apple"),
        s.tx("fxfee", CREDIT, "0.3", "2024-03-03", "fxfee"),
        s.tx("uber_p", CHECKING, "18.45", "2024-03-04", "uber_pending", pending=True),
        s.tx("amazon_p", CREDIT, "36.17", "2024-03-04", "amazon_pending", pending=True),
    ])
    # Update 2 (two pages): the Amazon pending is removed on the FIRST page, its posted
    # version comes on the second; the Uber posted comes first, its pending removal second.
    s.page(added=[
        s.tx("uber", CHECKING, "21.45", "2024-03-05", "uber_posted", pending_of="uber_p", auth="2024-03-04"),
        s.tx("coffee1", CHECKING, "5.75", "2024-03-05", "coffee"),
        s.tx("nopa_p", CREDIT, "42.50", "2024-03-05", "nopa", pending=True),
    ], removed=[s.removed("amazon_p")], has_more=True)
    s.page(added=[
        s.tx("amazon", CREDIT, "36.17", "2024-03-06", "amazon_posted", pending_of="amazon_p", auth="2024-03-04"),
        s.tx("coffee2", CHECKING, "5.75", "2024-03-05", "coffee"),
        s.tx("farmers", CHECKING, "27.50", "2024-03-05", "farmers"),
        s.tx("netflix", CREDIT, "15.49", "2024-03-05", "netflix"),
        s.tx("hold", CREDIT, "150.00", "2024-03-06", "hilton_hold", pending=True),
    ], removed=[s.removed("uber_p")])
    # Update 3 (one page): the dinner posts with a tip and no pending link; the farmers market
    # purchase is corrected; Netflix (posted) is withdrawn; the card is paid.
    s.page(added=[
        s.tx("nopa", CREDIT, "51.00", "2024-03-06", "nopa", auth="2024-03-05"),
        s.tx("autopay", CHECKING, "450.00", "2024-03-07", "autopay"),
        s.tx("payment", CREDIT, "-450.00", "2024-03-07", "payment"),
    ], modified=[s.modify("farmers", amount="27.05", m="farmers_fixed")],
        removed=[s.removed("nopa_p"), s.removed("netflix")])
    # Update 4 (one page): the hotel hold disappears without posting; a refund; a new pending.
    s.page(added=[
        s.tx("rei_refund", CREDIT, "-129.95", "2024-03-11", "rei_refund", auth="2024-03-10"),
        s.tx("atm", CHECKING, "60.00", "2024-03-11", "atm"),
        s.tx("lyft_p", CREDIT, "14.20", "2024-03-12", "lyft", pending=True),
    ], removed=[s.removed("hold")])

    expect = ["pay", "rent", "pge", "wholefoods", "uber", "coffee1", "coffee2", "farmers", "autopay", "atm",
              "airbnb", "rei", "apple", "fxfee", "amazon", "nopa", "payment", "rei_refund", "lyft_p"]
    fill_accounts(s)
    final = replay(s.pages)
    item = {
        "available_products": ["balance", "identity", "investments"],
        "billed_products": ["auth", "transactions"],
        "consent_expiration_time": None, "error": None,
        "institution_id": INSTITUTION_ID, "institution_name": INSTITUTION_NAME,
        "item_id": ITEM_ID, "update_type": "background",
        "webhook": "https://www.genericwebhookurl.com/webhook", "auth_method": "INSTANT_AUTH",
    }
    # /transactions/get taken after update 4 for 2024-03-01..2024-03-12: the same ids, newest first.
    txs = sorted(final.values(), key=lambda t: (t["date"], t["transaction_id"]), reverse=True)
    get = {
        "accounts": [account_object(a, final) for a in (CHECKING, CREDIT)],
        "transactions": txs,
        "item": item,
        "total_transactions": len(txs),
        "request_id": request_id("full_period:get"),
    }
    balance_get = {
        "accounts": [dict(account_object(a, final), holder_category="personal") for a in (CHECKING, CREDIT)],
        "item": item,
        "request_id": request_id("full_period:balance"),
    }
    emit(s, expect, extra={"transactions_get.json": get, "accounts_balance_get.json": balance_get})


def saved_with_request():
    """Pages saved together with the request that fetched them: {"request", "response"}.
    The request holds the secrets a careless tool would save too (the importer redacts them)."""
    s = Scenario("saved_with_request")
    s.page(added=[s.tx("pay", CHECKING, "-2450.00", "2024-03-01", "gusto"),
                  s.tx("rei", CREDIT, "129.95", "2024-03-02", "rei")], has_more=True)
    s.page(added=[s.tx("coffee", CHECKING, "5.75", "2024-03-05", "coffee"),
                  s.tx("amazon_p", CREDIT, "36.17", "2024-03-04", "amazon_pending", pending=True)], has_more=True)
    s.page(added=[s.tx("amazon", CREDIT, "36.17", "2024-03-06", "amazon_posted", pending_of="amazon_p", auth="2024-03-04")],
           removed=[s.removed("amazon_p")])
    fill_accounts(s)
    h = hashlib.sha256(b"access-token").hexdigest()
    access_token = "access-sandbox-" + "-".join(h[i:j] for i, j in ((0, 8), (8, 12), (12, 16), (16, 20), (20, 32)))
    wrapped = []
    for n, page in enumerate(s.pages, 1):
        req = {"client_id": hashlib.sha256(b"client").hexdigest()[:24], "secret": hashlib.sha256(b"secret").hexdigest()[:30],
               "access_token": access_token, "count": 2}
        if page["request_cursor"] is not None:
            req["cursor"] = page["request_cursor"]
        req["item_id"] = ITEM_ID
        if n == 3:
            # The other accepted form: the request cursor as a top-level "cursor" field.
            body = dict(page["body"])
            wrapped.append(dict([("cursor", page["request_cursor"])] + list(body.items())))
        else:
            wrapped.append({"request": req, "response": page["body"]})
    final = emit(s, ["pay", "rei", "coffee", "amazon"])
    folder = os.path.join(OUT, s.name)
    for n, w in enumerate(wrapped, 1):
        write(os.path.join(folder, f"page{n}.json"), w)
    write(os.path.join(folder, "all_pages.json"), wrapped)
    # Page 2 missing: page 3 was requested with page 2's next_cursor, not page 1's -> rejected.
    write(os.path.join(folder, "skipped_cursor.json"), [wrapped[0], wrapped[2]])
    return final


def errors():
    folder = os.path.join(OUT, "errors")
    write(os.path.join(folder, "item_login_required.json"), {
        "display_message": None,
        "documentation_url": "https://plaid.com/docs/errors/item/#item_login_required",
        "error_code": "ITEM_LOGIN_REQUIRED",
        "error_code_reason": None,
        "error_message": "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state",
        "error_type": "ITEM_ERROR",
        "request_id": request_id("errors:login"),
        "suggested_action": None,
    })
    write(os.path.join(folder, "transactions_sync_mutation_during_pagination.json"), {
        "error_type": "TRANSACTIONS_ERROR",
        "error_code": "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION",
        "error_message": "Underlying transaction data changed since last page was fetched. Please restart pagination from last update.",
        "display_message": None,
        "request_id": request_id("errors:mutation"),
    })
    write(os.path.join(folder, "institution_down.json"), {
        "error_type": "INSTITUTION_ERROR",
        "error_code": "INSTITUTION_DOWN",
        "error_message": "this institution is not currently responding to this request. please try again soon",
        "display_message": "This financial institution is not currently responding to requests. We apologize for the inconvenience.",
        "request_id": request_id("errors:down"),
    })


def main():
    for f in (plain_added, pending_to_posted_split_pages, pending_removed_before_posted, posted_without_pending_id,
              hold_never_posts, modified_posted, removed_posted, identical_coffees, refund, legacy_schema_2022,
              full_period, saved_with_request, errors):
        f()
    print("wrote", OUT)


if __name__ == "__main__":
    main()
