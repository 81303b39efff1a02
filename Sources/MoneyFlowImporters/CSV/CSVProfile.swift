import MoneyFlowCore
/// placeholder replaced below
public struct CSVProfile: Sendable, Hashable, Codable { public var name: String }
