/// Currency names as CMB prints them (`人民币` in the 2020 layout, ISO codes later).
public enum CMBCurrency {
    private static let names: [String: String] = [
        "人民币": "CNY", "人民幣": "CNY", "RMB": "CNY", "CNH": "CNH",
        "美元": "USD", "美金": "USD",
        "港币": "HKD", "港元": "HKD", "港幣": "HKD",
        "欧元": "EUR", "歐元": "EUR",
        "英镑": "GBP", "英鎊": "GBP",
        "日元": "JPY", "日圆": "JPY", "日圓": "JPY",
        "澳元": "AUD", "澳大利亚元": "AUD", "澳币": "AUD",
        "加元": "CAD", "加拿大元": "CAD", "加币": "CAD",
        "新加坡元": "SGD", "新币": "SGD", "新元": "SGD",
        "瑞士法郎": "CHF", "瑞郎": "CHF",
        "新西兰元": "NZD", "纽元": "NZD",
        "韩元": "KRW", "泰铢": "THB", "澳门元": "MOP", "澳门币": "MOP", "澳门幣": "MOP",
        "新台币": "TWD", "台币": "TWD", "卢布": "RUB", "俄罗斯卢布": "RUB",
        "丹麦克朗": "DKK", "瑞典克朗": "SEK", "挪威克朗": "NOK",
        "南非兰特": "ZAR", "印度卢比": "INR", "马来西亚林吉特": "MYR", "林吉特": "MYR",
        "菲律宾比索": "PHP", "印尼盾": "IDR", "越南盾": "VND", "阿联酋迪拉姆": "AED",
        "沙特里亚尔": "SAR", "墨西哥比索": "MXN", "巴西雷亚尔": "BRL", "土耳其里拉": "TRY",
        "波兰兹罗提": "PLN", "以色列谢克尔": "ILS", "哈萨克斯坦坚戈": "KZT",
        "黄金": "XAU",
    ]

    /// ISO 4217 code for a printed currency cell, or nil when unknown.
    public static func isoCode(_ printed: String) -> String? {
        let u = printed.utf8
        if u.count == 3, u.allSatisfy({ $0 >= 65 && $0 <= 90 }) { return names[printed] ?? printed }
        let t = printed.filter { !$0.isWhitespace }
        if let code = names[t] { return code }
        let upper = t.uppercased()
        if let code = names[upper] { return code }
        if upper.count == 3, upper.unicodeScalars.allSatisfy({ $0.value >= 65 && $0.value <= 90 }) { return upper }
        return nil
    }
}
