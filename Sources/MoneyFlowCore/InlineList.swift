/// A list that keeps its first element inline and allocates only from the second on.
///
/// A stored transaction offered to the engine (``CandidateTransaction``) lists a few facts per
/// supporting record (dates, provider ids, places), nearly always one record's worth: an
/// `Array` per list is one heap block per candidate and list (about 50–100 bytes each), which
/// at a million candidates was most of a store import's peak memory. A collection of the same
/// elements in the same order as the array it replaces; it encodes as that array.
public struct InlineList<Element> {
    @usableFromInline enum Storage {
        case empty
        case one(Element)
        /// Two or more elements.
        case many([Element])
    }
    @usableFromInline var storage: Storage

    @inlinable public init() { storage = .empty }

    @inlinable public init(_ elements: [Element]) {
        switch elements.count {
        case 0: storage = .empty
        case 1: storage = .one(elements[0])
        default: storage = .many(elements)
        }
    }

    @inlinable public mutating func append(_ e: Element) {
        switch storage {
        case .empty: storage = .one(e)
        case .one(let a): storage = .many([a, e])
        case .many(var xs):
            storage = .empty // drop this reference first, so the append does not copy the array
            xs.append(e)
            storage = .many(xs)
        }
    }
}

extension InlineList: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .many(let xs): xs.count
        }
    }
    @inlinable public subscript(i: Int) -> Element {
        switch storage {
        case .empty: preconditionFailure("InlineList index \(i) out of range")
        case .one(let a):
            precondition(i == 0, "InlineList index \(i) out of range")
            return a
        case .many(let xs): return xs[i]
        }
    }
}

extension InlineList: ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension InlineList: Equatable where Element: Equatable {
    @inlinable public static func == (a: InlineList, b: InlineList) -> Bool { a.elementsEqual(b) }
}

extension InlineList: Hashable where Element: Hashable {
    @inlinable public func hash(into h: inout Hasher) {
        h.combine(count)
        for e in self { h.combine(e) }
    }
}

extension InlineList: Codable where Element: Codable {
    public init(from decoder: any Decoder) throws { self.init(try [Element](from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try Array(self).encode(to: encoder) }
}

extension InlineList: Sendable where Element: Sendable {}
extension InlineList.Storage: Sendable where Element: Sendable {}

extension InlineList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
