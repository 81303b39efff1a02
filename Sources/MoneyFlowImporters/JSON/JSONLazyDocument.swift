import Foundation

/// A JSON document whose big arrays of objects stay in the bytes until asked for.
///
/// A file of 100,000 transactions is a few hundred bytes each as text but several KiB each as
/// a ``JSONValue`` tree; a reader that turns one element at a time into a record never needs
/// the whole tree. ``JSONParser/parseLazily(_:lazyKeys:lazyTopLevel:visit:)`` checks the whole
/// document exactly as ``JSONParser/parse(_:)`` does (same errors at the same offsets), but
/// each object element of the selected arrays is dropped once parsed: the array holds in its
/// place an empty object at the element's offset (a *placeholder*), and ``object(at:full:)``
/// parses the element again from the bytes when it is needed.
public struct JSONLazyDocument: Sendable {
    /// The document's bytes (shared, not copied).
    public let data: Data
    /// The document with its lazy arrays' object elements as placeholders.
    public let root: JSONValue
    public let maxDepth: Int
    let lazyKeys: Set<String>
    /// Start offsets of the elements left in the bytes.
    let elided: Set<Int>

    /// True when `o` stands for an element left in the bytes.
    public func isPlaceholder(_ o: JSONObject) -> Bool { o.members.isEmpty && elided.contains(o.offset) }

    /// True when `v` is or holds a placeholder at any depth.
    public func holdsPlaceholder(_ v: JSONValue) -> Bool {
        switch v {
        case .object(let o): return isPlaceholder(o) || o.members.contains { holdsPlaceholder($0.value) }
        case .array(let a): return a.contains { holdsPlaceholder($0) }
        default: return false
        }
    }

    /// The object that starts at byte `offset` (a placeholder's or any parsed object's), parsed
    /// again from the bytes: completely when `full`, else with its own lazy arrays left in the
    /// bytes again. The bytes were checked when the document was parsed, so this fails only if
    /// `offset` is not where an object starts.
    public func object(at offset: Int, full: Bool) throws(JSONParseError) -> JSONObject {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            var p = JSONParsing(b: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            if !full { p.lazyKeys = lazyKeys }
            do throws(JSONParseError) { return .success(try p.value(at: offset)) } catch { return .failure(error) }
        }
        guard case .object(let o) = try result.get() else {
            throw JSONParseError(offset: offset, line: 0, column: 0, message: "no object starts at byte \(offset)")
        }
        return o
    }

    /// `o` with every placeholder in it replaced by its element, at any depth (`o` itself when
    /// it holds none): what the document says, as ``JSONParser/parse(_:)`` would have returned it.
    public func complete(_ o: JSONObject) throws(JSONParseError) -> JSONObject {
        holdsPlaceholder(.object(o)) ? try object(at: o.offset, full: true) : o
    }
}

extension JSONParser {
    /// Parses `data` into a ``JSONLazyDocument``: the object elements of every array that is the
    /// value of a key in `lazyKeys` (at any depth), and of the top-level array when
    /// `lazyTopLevel`, are left in the bytes. `visit` sees each of them once, parsed, before it
    /// is dropped (with its own lazy arrays already as placeholders), so that a caller can
    /// learn something from every element (the secrets it holds) without keeping it.
    /// Malformed input fails exactly as ``parse(_:)`` fails.
    public func parseLazily(
        _ data: Data, lazyKeys: Set<String>, lazyTopLevel: Bool, visit: (JSONObject) -> Void = { _ in }
    ) throws(JSONParseError) -> JSONLazyDocument {
        let result: Result<(JSONValue, Set<Int>), JSONParseError> = withoutActuallyEscaping(visit) { visit in
            data.withUnsafeBytes { raw in
                var p = JSONParsing(b: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
                p.lazyKeys = lazyKeys
                p.lazyTopLevel = lazyTopLevel
                p.visit = visit
                do throws(JSONParseError) {
                    let root = try p.document()
                    return .success((root, p.elided))
                } catch { return .failure(error) }
            }
        }
        let (root, elided) = try result.get()
        return JSONLazyDocument(data: data, root: root, maxDepth: maxDepth, lazyKeys: lazyKeys, elided: elided)
    }
}
