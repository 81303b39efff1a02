/// A set of source kinds as one bit per kind: what a ``CandidateTransaction`` says of the
/// sources supporting it. A `Set<SourceKind>` is a heap block per candidate (about 80 bytes),
/// for a set that nearly always holds one kind. Iterates in ``SourceKind/allCases`` order;
/// encodes as an array of kinds, as the `Set` it replaces did.
public struct SourceKindSet: Sendable, Hashable {
    @usableFromInline var bits: UInt32 = 0

    @inlinable public init() {}

    public init<S: Sequence<SourceKind>>(_ kinds: S) {
        for k in kinds { insert(k) }
    }

    /// Every kind, once (`allCases` builds a new array on each use).
    @usableFromInline static let kinds: [SourceKind] = SourceKind.allCases

    /// The kind's bit: its position among all kinds.
    @inlinable static func bit(_ k: SourceKind) -> UInt32 { UInt32(1) << UInt32(kinds.firstIndex(of: k)!) }

    @inlinable public var isEmpty: Bool { bits == 0 }
    @inlinable public var count: Int { bits.nonzeroBitCount }
    @inlinable public func contains(_ k: SourceKind) -> Bool { bits & Self.bit(k) != 0 }
    @inlinable public mutating func insert(_ k: SourceKind) { bits |= Self.bit(k) }
}

extension SourceKindSet: Sequence {
    public struct Iterator: IteratorProtocol {
        @usableFromInline var rest: UInt32
        @inlinable init(rest: UInt32) { self.rest = rest }
        @inlinable public mutating func next() -> SourceKind? {
            guard rest != 0 else { return nil }
            let i = rest.trailingZeroBitCount
            rest &= rest - 1
            return SourceKindSet.kinds[i]
        }
    }
    @inlinable public func makeIterator() -> Iterator { Iterator(rest: bits) }
    @inlinable public var underestimatedCount: Int { count }
}

extension SourceKindSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral kinds: SourceKind...) { self.init(kinds) }
}

extension SourceKindSet: Codable {
    public init(from decoder: any Decoder) throws { self.init(try [SourceKind](from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try Array(self).encode(to: encoder) }
}
