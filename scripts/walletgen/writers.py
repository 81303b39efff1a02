"""Writers of the wallets' bills, in the layouts of the real exports (shared/reference/wallets/FORMATS.md;
deb-sig/double-entry-generator example/alipay, example/wechat): the Alipay 支付宝交易明细 CSV (GBK, CRLF,
dashed preamble, space-padded cells, a tab after order numbers, a comma ending every line, newest
first), its older PC export, the WeChat Pay CSV (UTF-8, `¥` amounts) and XLSX (numeric amount cells).

Each writer returns the file's bytes and, per row given, where it is: the 1-based physical line (CSV)
or sheet row (XLSX), for the expected files.
"""
from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import dataclass
from decimal import Decimal
from typing import Dict, List, Tuple
from xml.sax.saxutils import escape

ALIPAY_COLUMNS = ["交易时间", "交易分类", "交易对方", "对方账号", "商品说明", "收/支", "金额", "收/付款方式", "交易状态",
                  "交易订单号", "商家订单号", "备注"]
ALIPAY_PC_COLUMNS = ["交易号", "商家订单号", "交易创建时间", "付款时间", "最近修改时间", "交易来源地", "类型", "交易对方", "商品名称",
                     "金额（元）", "收/支", "交易状态", "服务费（元）", "成功退款（元）", "备注", "资金状态"]
WECHAT_COLUMNS = ["交易时间", "交易类型", "交易对方", "商品", "收/支", "金额(元)", "支付方式", "当前状态", "交易单号", "商户单号", "备注"]


@dataclass
class Preamble:
    name: str            # 姓名 (Alipay) / 微信昵称 (WeChat)
    account: str         # 支付宝账户 (Alipay)
    start: dt.date
    end: dt.date
    exported: dt.datetime


def _pad(text: str, width: int) -> str:
    """Alipay pads every cell with spaces to a column width counted in bytes of GBK."""
    n = len(text.encode("gbk"))
    return text + " " * max(1, width - n)


def alipay_csv(p: Preamble, rows: List[Dict[str, str]], *, encoding: str = "gbk", short_preamble: bool = False,
               extra_preamble: int = 0) -> Tuple[bytes, List[int]]:
    """rows: newest first, each {column: text}; amounts as plain decimals. Returns (bytes, line of each row)."""
    spent = [r for r in rows if r["收/支"] == "支出"]
    income = [r for r in rows if r["收/支"] == "收入"]
    neutral = [r for r in rows if r["收/支"] == "不计收支"]
    total = lambda rs: sum((Decimal(r["金额"]) for r in rs), Decimal("0"))
    lines = ["-" * 84, "导出信息：", f"姓名：{p.name}", f"支付宝账户：{p.account}",
             f"起始时间：[{p.start} 00:00:00]    终止时间：[{p.end} 23:59:59]", "导出交易类型：[全部]",
             f"导出时间：[{p.exported:%Y-%m-%d %H:%M:%S}]", f"共{len(rows)}笔记录",
             f"收入：{len(income)}笔 {total(income):.2f}元", f"支出：{len(spent)}笔 {total(spent):.2f}元",
             f"不计收支：{len(neutral)}笔 {total(neutral):.2f}元", "", "特别提示：",
             "1.本回单内容可表明支付宝受理了相应支付交易申请，因系统原因或通讯故障等偶发因素导致本回单与实际交易结果不符时，以实际交易情况为准；",
             "2.请勿将本回单作为收款方发货的凭据使用，请查证账户实际到账情况后再进行发货操作；",
             "3.支付宝快捷支付等非余额支付方式可能既产生支付宝交易也同步产生银行交易，因此请勿使用本回单进行重复记账；",
             "4.本回单如经任何涂改、编造，均立即失去效力；",
             "5.部分账单如：充值提现、账户转存或者个人设置收支等不计入为收入或者支出，记为不计收支类；",
             "6.因统计逻辑不同，明细金额直接累加后，可能会和下方统计金额不一致，请以实际交易金额为准；",
             "7.禁止将本回单用于非法用途；", "8.本明细仅展示当前账单中的交易，不包括已删除的记录；", "9.本明细仅供个人对账使用。", ""]
    if short_preamble:        # a 2026 export has one line fewer
        lines.remove("导出交易类型：[全部]")
    lines[1:1] = [f"注{i + 1}：本行为导出说明" for i in range(extra_preamble)]
    lines.append("-" * 24 + "支付宝（中国）网络技术有限公司  电子客户回单" + "-" * 24)
    widths = [20, 24, 22, 20, 24, 22, 20, 26, 24, 14, 21, 22]
    lines.append("".join(_pad(c, w) + "," for c, w in zip(ALIPAY_COLUMNS, widths)))
    where = []
    for r in rows:
        cells = []
        for c, w in zip(ALIPAY_COLUMNS, widths):
            v = r.get(c, "")
            cells.append(v + "\t," if c in ("交易订单号", "商家订单号") else _pad(v, w) + ",")
        where.append(len(lines) + 1)
        lines.append("".join(cells))
    return ("\r\n".join(lines) + "\r\n").encode(encoding), where


def alipay_pc_csv(account: str, start: dt.date, end: dt.date, rows: List[Dict[str, str]]) -> Tuple[bytes, List[int]]:
    """The older PC export (GBK): 交易号,…,资金状态; no payment method."""
    lines = ["支付宝交易记录明细查询", f"账号:[{account}]", f"起始日期:[{start} 00:00:00]    终止日期:[{end} 23:59:59]",
             "---------------------------------交易记录明细列表------------------------------------",
             "".join(_pad(c, 18) + "," for c in ALIPAY_PC_COLUMNS)]
    where = []
    for r in rows:
        where.append(len(lines) + 1)
        lines.append("".join(_pad(r.get(c, ""), 18) + "," for c in ALIPAY_PC_COLUMNS))
    lines += ["------------------------------------------------------------------------------------",
              f"共{len(rows)}笔记录", "导出时间:[2016-02-01 10:00:00]    用户:" + account]
    return ("\r\n".join(lines) + "\r\n").encode("gbk"), where


def _wechat_preamble(p: Preamble, rows: List[Dict[str, str]], amount) -> List[List[str]]:
    def part(direction):
        rs = [r for r in rows if r["收/支"] == direction]
        return len(rs), sum((amount(r) for r in rs), Decimal("0"))
    (ni, si), (ns, ss), (nn, sn) = part("收入"), part("支出"), part("/")
    lines = ["微信支付账单明细", f"微信昵称：[{p.name}]", f"起始时间：[{p.start} 00:00:00] 终止时间：[{p.end} 23:59:59]",
             "导出类型：[全部]", f"导出时间：[{p.exported:%Y-%m-%d %H:%M:%S}]", "", f"共{len(rows)}笔记录",
             f"收入：{ni}笔 {si:.2f}元", f"支出：{ns}笔 {ss:.2f}元", f"中性交易：{nn}笔 {sn:.2f}元", "注：",
             "1. 充值/提现/理财通购买/零钱通存取/信用卡还款等交易，将计入中性交易",
             "2. 本明细仅展示当前账单中的交易，不包括已删除的记录", "3. 本明细仅供个人对账使用",
             "4. 本明细中的交易时间均为北京时间（UTC+08:00）", "",
             "----------------------微信支付账单明细列表--------------------"]
    return [[l] for l in lines]


def wechat_csv(p: Preamble, rows: List[Dict[str, str]]) -> Tuple[bytes, List[int]]:
    """The older CSV (UTF-8): every line 11 fields, amounts `¥28.16`, order numbers with a tab."""
    pre = _wechat_preamble(p, rows, lambda r: Decimal(r["金额(元)"]))
    lines = [l[0] + "," * 10 for l in pre] + [",".join(WECHAT_COLUMNS)]
    where = []
    for r in rows:
        cells = []
        for c in WECHAT_COLUMNS:
            v = r.get(c, "")
            if c == "金额(元)":
                v = "¥" + v
            elif c in ("交易单号", "商户单号"):
                v = v + "\t"
            elif c in ("商品", "备注") and v:
                v = '"' + v.replace('"', '""') + '"'
            cells.append(v)
        where.append(len(lines) + 1)
        lines.append(",".join(cells))
    return ("\n".join(lines) + "\n").encode("utf-8"), where


def _col(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def wechat_xlsx(p: Preamble, rows: List[Dict[str, str]], mtime: dt.datetime) -> Tuple[bytes, List[int]]:
    """The XLSX sent since 2025: one sheet, shared strings for text, amounts as numeric cells whose
    stored text is the shortest decimal (`28.1`), order numbers as text with their tab."""
    strings: List[str] = []
    index: Dict[str, int] = {}

    def sst(s: str) -> int:
        if s not in index:
            index[s] = len(strings)
            strings.append(s)
        return index[s]
    sheet_rows = _wechat_preamble(p, rows, lambda r: Decimal(r["金额(元)"])) + [WECHAT_COLUMNS]
    where = []
    for r in rows:
        where.append(len(sheet_rows) + 1)
        sheet_rows.append([r.get(c, "") + ("\t" if c in ("交易单号", "商户单号") else "") for c in WECHAT_COLUMNS])
    xml_rows = []
    for n, cells in enumerate(sheet_rows, start=1):
        cs = []
        for k, v in enumerate(cells):
            ref = f"{_col(k)}{n}"
            if n > len(sheet_rows) - len(rows) and k == 5:
                text = format(Decimal(v).normalize(), "f")          # 28.10 is stored 28.1, 5.00 is 5
                cs.append(f'<c r="{ref}" s="1"><v>{text}</v></c>')
            elif v != "":
                cs.append(f'<c r="{ref}" t="s"><v>{sst(v)}</v></c>')
        xml_rows.append(f'<row r="{n}">{"".join(cs)}</row>')
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    sheet = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns} {rel}><sheetData>{"".join(xml_rows)}</sheetData></worksheet>'
    si = "".join(f'<si><t xml:space="preserve">{escape(s)}</t></si>' for s in strings)
    shared = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst {ns} count="{len(strings)}" uniqueCount="{len(strings)}">{si}</sst>'
    workbook = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook {ns} {rel}><sheets>'
                f'<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
    wb_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
               '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
               '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
               '</Relationships>')
    styles = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet {ns}><numFmts count="1"><numFmt numFmtId="164" formatCode="0.00"/></numFmts>'
              '<fonts count="1"><font><sz val="11"/><name val="宋体"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
              '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs>'
              '<cellXfs count="2"><xf/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>')
    content_types = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                     '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                     '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                     '<Default Extension="xml" ContentType="application/xml"/>'
                     '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                     '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                     '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                     '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
                     '</Types>')
    root_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                 '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                 '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
                 '</Relationships>')
    buf = io.BytesIO()
    stamp = (mtime.year, mtime.month, mtime.day, mtime.hour, mtime.minute, mtime.second)
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in [("[Content_Types].xml", content_types), ("_rels/.rels", root_rels), ("xl/workbook.xml", workbook),
                           ("xl/_rels/workbook.xml.rels", wb_rels), ("xl/styles.xml", styles),
                           ("xl/sharedStrings.xml", shared), ("xl/worksheets/sheet1.xml", sheet)]:
            z.writestr(zipfile.ZipInfo(name, stamp), text.encode("utf-8"), zipfile.ZIP_DEFLATED)
    return buf.getvalue(), where
