/// Which wallet records are refunds, and what they tell about the order they refund, so that
/// a refund takes the category of the purchase it gives back (a refunded pair of shoes is
/// clothing coming back, not income, and the refund says nothing a shop's name does not).
///
/// - Alipay: a refund is its own row (交易分类 `退款`, 商品说明 `退款-<item>`, 交易状态 `退款成功`)
///   whose 交易订单号 is `<original order>_<suffix>`; the PC bill's refund is a record of the
///   original row itself (same order number, category `退款`).
/// - WeChat Pay: a refund's 交易类型 is `<merchant>-退款` (or `退款`) and its order number is
///   unrelated: its 交易对方 and 商品 are the purchase's, which the store looks up instead.
public enum WalletRefund {
    /// True when an Alipay record (交易分类 `category`, 商品说明 `description`) is a refund.
    public static func isAlipayRefund(category: String?, description: String) -> Bool {
        category == "退款" || description.hasPrefix("退款-")
    }

    /// The order an Alipay refund gives money back for: the part of its order number before
    /// the first `_`, or its own order number when it has no suffix (the PC bill's refund).
    public static func alipayOriginalOrder(orderID: String) -> String {
        guard let cut = orderID.firstIndex(of: "_"), cut != orderID.startIndex else { return orderID }
        return String(orderID[..<cut])
    }

    /// True when a WeChat Pay record's 交易类型 `category` says it is a refund.
    public static func isWeChatRefund(category: String?) -> Bool {
        guard let category else { return false }
        return category == "退款" || category.hasSuffix("-退款")
    }
}
