import Foundation

/// What a file is, told from its content (never its name), for the error that says why no
/// importer read it: "an Excel workbook (XLSX)" or "a Markdown document" tells a user what to
/// do, where a CSV parse error on their README or "the ZIP holds no PDF" on a spreadsheet
/// sends them looking for a broken bank file.
public enum FileKind {
    /// A phrase naming what `data` is, with what to do when there is something to do ("an Excel
    /// workbook (XLSX); save the sheet as CSV and import that"), or nil when it is none of the
    /// kinds known here. `zipEntryNames` are the names inside `data` when it is a ZIP.
    public static func describe(_ data: Data, zipEntryNames: [String]? = nil) -> String? {
        let head = [UInt8](data.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts(Array("%PDF".utf8)) { return "a PDF" }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            return zipEntryNames.map(zipKind) ?? "a ZIP archive"
        }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return "an Office 97-2003 file (XLS or DOC)" + spreadsheetAdvice
        }
        let images: [([UInt8], Int, String)] = [
            ([0x89, 0x50, 0x4E, 0x47], 0, "PNG"), ([0xFF, 0xD8, 0xFF], 0, "JPEG"), (Array("GIF8".utf8), 0, "GIF"),
            (Array("II*\0".utf8), 0, "TIFF"), (Array("MM\0*".utf8), 0, "TIFF"), (Array("WEBP".utf8), 8, "WebP"),
            (Array("ftypheic".utf8), 4, "HEIC"), (Array("ftypmif1".utf8), 4, "HEIF"),
        ]
        for (magic, offset, name) in images where starts(magic, at: offset) {
            return "a \(name) image (a photo or scan of a statement has no text to read; download the statement itself)"
        }
        let archives: [([UInt8], String)] = [
            ([0x1F, 0x8B], "a gzip-compressed file"), (Array("7z".utf8) + [0xBC, 0xAF], "a 7-Zip archive"),
            (Array("Rar!".utf8), "a RAR archive"),
        ]
        for (magic, name) in archives where starts(magic) { return name + " (unpack it and import the files inside)" }
        return textKind(data)
    }

    static let spreadsheetAdvice = "; save the sheet as CSV and import that (with --csv-profile when your bank is not built in)"

    /// A ZIP by its entry names: an Office Open XML or OpenDocument file, or an archive.
    static func zipKind(_ names: [String]) -> String {
        let set = Set(names)
        if set.contains("[Content_Types].xml") {
            if names.contains(where: { $0.hasPrefix("xl/") }) { return "an Excel workbook (XLSX)" + spreadsheetAdvice }
            if names.contains(where: { $0.hasPrefix("word/") }) { return "a Word document (DOCX)" }
            if names.contains(where: { $0.hasPrefix("ppt/") }) { return "a PowerPoint presentation (PPTX)" }
            return "an Office Open XML document"
        }
        if set.contains("mimetype") && set.contains("content.xml") { return "an OpenDocument file (ODS, ODT)" + spreadsheetAdvice }
        if !names.contains(where: { $0.lowercased().hasSuffix(".pdf") }) { return "a ZIP archive with no PDF in it" }
        return "a ZIP archive"
    }

    /// True when a ZIP with these entry names is an office document (a spreadsheet, a text),
    /// never a statement container.
    public static func isOfficeDocument(zipEntryNames names: [String]) -> Bool {
        let set = Set(names)
        return set.contains("[Content_Types].xml") || (set.contains("mimetype") && set.contains("content.xml"))
    }

    /// Text that is a document rather than a table: HTML, XML, JSON, Markdown, prose.
    static func textKind(_ data: Data) -> String? {
        // A multi-byte character cut at the sample's end: decode a small file whole.
        guard let (text, _) = (try? TextDecoder.decode(data.prefix(64 * 1024))) ?? (data.count <= 1 << 20 ? try? TextDecoder.decode(data) : nil)
        else { return nil }
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        let start = trimmed.prefix(512).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || (start.hasPrefix("<") && start.contains("<html")) {
            return "an HTML page"
        }
        if start.hasPrefix("<?xml") { return "an XML file" }
        if start.hasPrefix("{") || start.hasPrefix("[") { return "a JSON file" }
        let delimiter = CSVParser.detectDelimiter(text)
        guard CSVTableShape.isProse(text, delimiter: delimiter, rows: try? CSVParser.parse(text, delimiter: delimiter)) else { return nil }
        let lines = text.split(whereSeparator: \.isNewline).prefix(CSVTableShape.sampleRows)
        let markdown = lines.contains { line in
            line.hasPrefix("```") || line.range(of: #"^#{1,6} \S"#, options: .regularExpression) != nil
                || line.range(of: #"\]\([^)]+\)"#, options: .regularExpression) != nil
        }
        return markdown ? "a Markdown document" : "a plain-text document"
    }
}
