/// The default accounts for the wallet bills' own categories.
///
/// Alipay's 交易分类 names what was bought; WeChat Pay's 交易类型 mostly names how it was paid
/// (`商户消费`, `扫二维码付款`), which says nothing about the category, so those map to nothing
/// (remap them in your file if every such payment of yours is one thing). Transfers, top-ups,
/// investments and refunds map to nothing: they move money, they are not spending.
enum WalletCategoryDefaults {
    typealias Target = ProviderMapping.Target

    static let alipay: [String: Target] = [
        "餐饮美食": .both("Expenses:Food:Restaurants"), "服饰装扮": .both("Expenses:Shopping:Clothing"),
        "日用百货": .both("Expenses:Shopping:Household"), "家居家装": .both("Expenses:Home"),
        "数码电器": .both("Expenses:Shopping:Electronics"), "运动户外": .both("Expenses:Shopping:Sports"),
        "美容美发": .both("Expenses:PersonalCare:HairAndBeauty"), "母婴亲子": .both("Expenses:Family:Children"),
        "宠物": .both("Expenses:Pets"), "交通出行": .both("Expenses:Transport"), "爱车养车": .both("Expenses:Transport:Car"),
        "住房物业": .both("Expenses:Housing"), "酒店旅游": .both("Expenses:Travel"), "文化休闲": .both("Expenses:Entertainment"),
        "教育培训": .both("Expenses:Education"), "医疗健康": .both("Expenses:Health"), "生活服务": .both("Expenses:Services"),
        "公共服务": .both("Expenses:Government:Fees"), "商业服务": .both("Expenses:Services:Business"),
        "公益捐赠": .both("Expenses:Donations"), "互助保障": .both("Expenses:Insurance"), "保险": .both("Expenses:Insurance"),
        "充值缴费": .both("Expenses:Housing:Utilities"), "收入": Target(outflow: nil, inflow: "Income:Other"),
        "投资理财": .nothing, "信用借还": .nothing, "转账红包": .nothing, "亲友代付": .nothing, "账户存取": .nothing,
        "退款": .nothing, "其他": .nothing,
    ]

    static let wechat: [String: Target] = [
        "微信红包": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "微信红包（单发）": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "微信红包（群红包）": Target(outflow: "Expenses:Gifts:RedPackets", inflow: "Income:Gifts:RedPackets"),
        "亲属卡交易": .both("Expenses:Family"),
        "商户消费": .nothing, "扫二维码付款": .nothing, "转账": .nothing, "二维码收款": .nothing, "群收款": .nothing,
        "零钱充值": .nothing, "零钱提现": .nothing, "零钱通转入": .nothing, "零钱通转出": .nothing, "理财通": .nothing,
        "信用卡还款": .nothing, "退款": .nothing,
    ]
}
