import MoneyFlowCore

/// The default accounts for the wallet bills' own categories.
///
/// Alipay's 交易分类 names what was bought; WeChat Pay's 交易类型 mostly names how it was paid
/// (`商户消费`, `扫二维码付款`), which says nothing about the category, so those map to nothing
/// (remap them in your file if every such payment of yours is one thing). Top-ups, investments
/// and refunds map to nothing: they move money, they are not spending (a refund takes its
/// purchase's category instead, ``WalletRefund``). A spending category books money out only:
/// money coming in under it is not spending, and is left uncategorised rather than booked to an
/// `Expenses:` account. Money sent to or received from a person (Alipay 转账红包, WeChat 转账) is
/// booked as such, apart from spending on things.
enum WalletCategoryDefaults {
    typealias Target = ProviderMapping.Target

    /// Money out only (see above).
    static func spending(_ account: String) -> Target { Target(outflow: account, inflow: nil) }
    static let people = Target(outflow: "Expenses:Transfers:People", inflow: "Income:Transfers:People")

    static let alipay: [String: Target] = [
        "餐饮美食": spending("Expenses:Food:Restaurants"), "服饰装扮": spending("Expenses:Shopping:Clothing"),
        "日用百货": spending("Expenses:Shopping:Household"), "家居家装": spending("Expenses:Home"),
        "数码电器": spending("Expenses:Shopping:Electronics"), "运动户外": spending("Expenses:Shopping:Sports"),
        "美容美发": spending("Expenses:PersonalCare:HairAndBeauty"), "母婴亲子": spending("Expenses:Family:Children"),
        "宠物": spending("Expenses:Pets"), "交通出行": spending("Expenses:Transport"), "爱车养车": spending("Expenses:Transport:Car"),
        "住房物业": spending("Expenses:Housing"), "酒店旅游": spending("Expenses:Travel"), "文化休闲": spending("Expenses:Entertainment"),
        "教育培训": spending("Expenses:Education"), "医疗健康": spending("Expenses:Health"), "生活服务": spending("Expenses:Services"),
        "公共服务": spending("Expenses:Government:Fees"), "商业服务": spending("Expenses:Services:Business"),
        "公益捐赠": spending("Expenses:Donations"), "互助保障": spending("Expenses:Insurance"), "保险": spending("Expenses:Insurance"),
        "充值缴费": spending("Expenses:Housing:Utilities"), "收入": Target(outflow: nil, inflow: "Income:Other"),
        "转账红包": people, "收益发放": Target(outflow: nil, inflow: "Income:Interest"),
        "投资理财": .nothing, "信用借还": .nothing, "亲友代付": .nothing, "账户存取": .nothing,
        "退款": .nothing, "其他": .nothing,
    ]

    static let wechat: [String: Target] = [
        "微信红包": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "微信红包（单发）": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "微信红包（群红包）": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "亲属卡交易": spending("Expenses:Family"), "转账": people,
        "商户消费": .nothing, "扫二维码付款": .nothing, "二维码收款": .nothing, "群收款": .nothing,
        "零钱充值": .nothing, "零钱提现": .nothing, "零钱通转入": .nothing, "零钱通转出": .nothing, "理财通": .nothing,
        "信用卡还款": .nothing, "退款": .nothing,
    ]
}

extension ProviderCategory {
    /// A wallet record's category as the mapping looks it up: WeChat Pay's 交易类型; Alipay's
    /// 交易分类, with the row's kind as the detailed category where 商品说明 tells apart rows the
    /// 交易分类 lumps together: 投资理财 holds both money moved to and from 余额宝 (own accounts)
    /// and 余额宝's `收益发放` (interest paid in), which is detailed `收益发放`.
    public static func wallet(_ kind: SourceKind, category: String, item: String?) -> ProviderCategory {
        guard kind == .alipay else { return ProviderCategory(taxonomy: .wechat, primary: category) }
        let detailed = item?.contains("收益发放") == true ? "收益发放" : nil
        return ProviderCategory(taxonomy: .alipay, primary: category, detailed: detailed)
    }
}
