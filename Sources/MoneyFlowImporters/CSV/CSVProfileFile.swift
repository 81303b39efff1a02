import Foundation
import MoneyFlowCore

/// Reading a profile file: the checks every profile passes, whatever its syntax.
///
/// JSON files are read here; TOML files are turned into the same ``JSONValue`` by the
/// `MoneyFlowConfig` target (TOMLKit builds C++, so this portable target does not link it) and
/// then go through ``CSVProfile/decode(_:file:)`` like JSON. Built-in profiles are JSON files
/// read the same way (``BuiltInCSVProfiles``).
extension CSVProfile {
    /// Deepest nesting accepted in a profile file (a profile is flat; a few levels of arrays).
    public static let maxNesting = 64

    /// Loads a user profile from a `.json` file (`.toml` files: `ProfileFiles.load` in
    /// MoneyFlowConfig, which reads both).
    public static func load(contentsOf url: URL) throws -> CSVProfile {
        guard url.pathExtension.lowercased() != "toml" else {
            throw ProfileError(file: url.path, message: "TOML profiles are read by MoneyFlowConfig (ProfileFiles.load)")
        }
        return try decodeJSON(Data(contentsOf: url), file: url.path)
    }

    /// Reads a profile from JSON text (a user's file or a built-in one).
    public static func decodeJSON(_ data: Data, file: String) throws -> CSVProfile {
        let value: JSONValue
        do { value = try JSONParser(maxDepth: maxNesting).parse(data) } catch { throw ProfileError(file: file, message: error.description) }
        return try decode(value, file: file)
    }

    /// Builds a profile from a parsed file (JSON, or TOML converted to the same value).
    ///
    /// An unknown key is an error (a misspelt `invert_sign` silently ignored would flip every
    /// sign in the file), with the nearest valid key suggested; so is a value of the wrong type.
    public static func decode(_ value: JSONValue, file: String) throws -> CSVProfile {
        guard let object = value.objectValue else {
            throw ProfileError(file: file, message: "expected a JSON object, found \(value.kindName)")
        }
        for key in object.keys where !validKeys.contains(key) {
            let hint = NearestName.hint(key, in: validKeys)
            throw ProfileError(file: file, message: "unknown key '\(key)'\(hint); valid keys: \(validKeys.joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(CSVProfile.self, from: Data(value.serialized().utf8))
        } catch let DecodingError.dataCorrupted(ctx) {
            throw ProfileError(file: file, message: ctx.debugDescription)
        } catch let DecodingError.keyNotFound(key, _) {
            throw ProfileError(file: file, message: "missing key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(type, ctx) {
            throw ProfileError(
                file: file,
                message: "wrong type for '\(ctx.codingPath.map(\.stringValue).joined(separator: "."))' (expected \(typeName(type)))")
        } catch let DecodingError.valueNotFound(type, ctx) {
            throw ProfileError(
                file: file,
                message:
                    "wrong type for '\(ctx.codingPath.map(\.stringValue).joined(separator: "."))' (expected \(typeName(type)), found null)")
        }
    }

    static func typeName(_ t: Any.Type) -> String {
        switch t {
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is ColumnRef.Type: return "a column name, a list of names or a 0-based index"
        case is [String].Type: return "a list of strings"
        default: return "\(t)"
        }
    }
}

/// A user profile file that cannot be used.
public struct ProfileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) { self.file = file; self.message = message }
    public var description: String { "\(file): invalid CSV profile: \(message)" }
}
