// Text extraction through libpoppler's C++ API. poppler-glib's text calls (get_text,
// get_text_layout, get_text_attributes) each walk a TextPage built with poppler's full layout
// analysis (blocks, flows, reading order), which costs about a third of `pdftotext -layout`;
// MoneyFlow's importers rebuild rows from positions themselves, so here the TextOutputDev keeps
// the words in content-stream order (rawOrder: no layout analysis) and one pass copies their
// glyphs out. Glyph boxes and font sizes are poppler's own (TextWord::getCharBBox, getFontSize).
#include "CPopplerText.h"

#include <Error.h>
#include <GlobalParams.h>
#include <Gfx.h>
#include <Page.h>
#include <PDFDoc.h>
#include <Stream.h>
#include <TextOutputDev.h>
#include <goo/GooString.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct mf_pdf_document {
    // Declared first so it is destroyed last: poppler's global parameters outlive the document.
    std::unique_ptr<GlobalParamsIniter> initer;
    std::vector<char> bytes; // the MemStream reads these; destroyed after the document
    std::unique_ptr<PDFDoc> doc;
};

namespace {

// Errors reported on this thread while a page is read (nullptr outside a read): poppler reports
// through one process-wide callback, and each reading thread has its own document.
thread_local std::vector<std::string> *pageErrors = nullptr;
constexpr size_t maxErrors = 100;

// Errors, not warnings: a syntax warning is worked around and harmless; config, command-line and
// permission categories do not occur while drawing a page.
void collectError(ErrorCategory category, Goffset pos, const char *message)
{
    const char *name = nullptr;
    switch (category) {
    case errSyntaxError: name = "Syntax error"; break;
    case errIO: name = "IO error"; break;
    case errUnimplemented: name = "Unimplemented feature"; break;
    case errInternal: name = "Internal error"; break;
    default: return;
    }
    std::vector<std::string> *list = pageErrors;
    if (list == nullptr || list->size() >= maxErrors) {
        return;
    }
    list->push_back(std::string(name) + " at position " + std::to_string(static_cast<long long>(pos)) + ": " + (message ? message : ""));
}

std::mutex openMutex;

// poppler-glib's password handling: first the password in Latin-1 (empty when it has characters
// beyond Latin-1), then, for an encrypted file, the UTF-8 bytes as given.
std::optional<GooString> latin1(const char *password)
{
    std::string out;
    const auto *p = reinterpret_cast<const unsigned char *>(password);
    while (*p) {
        if (*p < 0x80) {
            out.push_back(static_cast<char>(*p));
            p += 1;
        } else if ((*p & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
            unsigned v = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
            if (v > 0xFF) {
                return GooString();
            }
            out.push_back(static_cast<char>(v));
            p += 2;
        } else {
            return GooString();
        }
    }
    return GooString(out);
}

bool isWhitespace(uint32_t v)
{
    if (v < 0x80) {
        return v <= 0x20 || v == 0x7F;
    }
    switch (v) {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000: case 0xFEFF:
        return true;
    default:
        return v >= 0x2000 && v <= 0x200B;
    }
}

} // namespace

static mf_pdf_document *openDocument(const void *data, size_t length, const char *password, mf_pdf_open_status *status,
                                     const char **message)
{
    // Opens are serialised: the first document creates poppler's global parameters, and the
    // callback is set on every open (another poppler client in the process may have replaced it).
    std::lock_guard<std::mutex> lock(openMutex);
    auto document = std::make_unique<mf_pdf_document>();
    document->initer = std::make_unique<GlobalParamsIniter>(collectError);
    setErrorCallback(collectError);
    const char *bytes = static_cast<const char *>(data);
    document->bytes.assign(bytes, bytes + length);
    auto open = [&](const std::optional<GooString> &pw) {
        auto *stream = new MemStream(document->bytes.data(), 0, static_cast<Goffset>(document->bytes.size()), Object(objNull));
        return std::make_unique<PDFDoc>(stream, pw, pw);
    };
    const std::optional<GooString> first = password ? latin1(password) : std::optional<GooString>();
    document->doc = open(first);
    if (!document->doc->isOk() && document->doc->getErrorCode() == errEncrypted && password) {
        document->doc = open(GooString(password));
    }
    if (document->doc->isOk()) {
        return document.release();
    }
    switch (document->doc->getErrorCode()) {
    case errEncrypted:
        *status = MF_PDF_OPEN_ENCRYPTED;
        *message = "Document is encrypted";
        break;
    case errBadCatalog:
        *status = MF_PDF_OPEN_DAMAGED;
        *message = "Failed to read the document catalog";
        break;
    case errDamaged:
        *status = MF_PDF_OPEN_DAMAGED;
        *message = "PDF document is damaged";
        break;
    default:
        *status = MF_PDF_OPEN_DAMAGED;
        *message = "Failed to load document";
    }
    return nullptr;
}

extern "C" void mf_pdf_close(mf_pdf_document *document)
{
    delete document;
}

extern "C" int mf_pdf_page_count(mf_pdf_document *document)
{
    return document->doc->getNumPages();
}

static int readPage(mf_pdf_document *document, int index, mf_pdf_page *out)
{
    Page *page = document->doc->getPage(index + 1);
    if (page == nullptr) {
        return 0;
    }
    const int rotate = page->getRotate();
    if (rotate == 90 || rotate == 270) {
        out->width = page->getCropHeight();
        out->height = page->getCropWidth();
    } else {
        out->width = page->getCropWidth();
        out->height = page->getCropHeight();
    }
    // poppler-glib's page text: 72 dpi, no rotation, crop box, the content stream only (no
    // annotations); rawOrder keeps the words in content-stream order without layout analysis.
    TextOutputDev device(nullptr, true, 0, true, false);
    Gfx *gfx = page->createGfx(&device, 72.0, 72.0, 0, false, true, -1, -1, -1, -1, false, nullptr, nullptr);
    page->display(gfx);
    device.endPage();
    delete gfx;

    std::unique_ptr<TextWordList> words = device.makeWordList();
    std::vector<mf_pdf_glyph> glyphs;
    const int wordCount = words->getLength();
    for (int w = 0; w < wordCount; ++w) {
        const TextWord *word = words->get(w);
        const int n = word->getLength();
        const double size = word->getFontSize();
        for (int i = 0; i < n; ++i) {
            uint32_t v = *word->getChar(i);
            if (isWhitespace(v)) {
                continue;
            }
            if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
                v = 0xFFFD;
            }
            mf_pdf_glyph g;
            g.scalar = v;
            word->getCharBBox(i, &g.x0, &g.y0, &g.x1, &g.y1);
            g.font_size = size;
            glyphs.push_back(g);
        }
    }
    if (!glyphs.empty()) {
        out->glyphs = static_cast<mf_pdf_glyph *>(std::malloc(glyphs.size() * sizeof(mf_pdf_glyph)));
        if (out->glyphs != nullptr) {
            std::memcpy(out->glyphs, glyphs.data(), glyphs.size() * sizeof(mf_pdf_glyph));
            out->glyph_count = glyphs.size();
        }
    }
    return 1;
}

// The C entry points never let a C++ exception (out of memory) reach Swift.
extern "C" mf_pdf_document *mf_pdf_open(const void *data, size_t length, const char *password, mf_pdf_open_status *status,
                                        const char **message)
{
    *status = MF_PDF_OPEN_OK;
    *message = nullptr;
    try {
        return openDocument(data, length, password, status, message);
    } catch (...) {
        *status = MF_PDF_OPEN_DAMAGED;
        *message = "poppler failed while opening the document (out of memory?)";
        return nullptr;
    }
}

extern "C" int mf_pdf_read_page(mf_pdf_document *document, int index, mf_pdf_page *out)
{
    std::memset(out, 0, sizeof *out);
    std::vector<std::string> errors;
    pageErrors = &errors;
    int read = 1;
    bool failed = false;
    try {
        read = readPage(document, index, out);
    } catch (...) {
        failed = true;
    }
    pageErrors = nullptr;
    if (failed) {
        // A page that could not be read to its end is a damaged page, never a silently short one.
        std::free(out->glyphs);
        out->glyphs = nullptr;
        out->glyph_count = 0;
        out->error_count = 1 + static_cast<int>(errors.size());
        out->first_error = strdup("Internal error: poppler failed while reading the page (out of memory?)");
    } else if (!errors.empty()) {
        out->error_count = static_cast<int>(errors.size());
        out->first_error = strdup(errors.front().c_str());
    }
    return read;
}

extern "C" void mf_pdf_page_free(mf_pdf_page *page)
{
    std::free(page->glyphs);
    std::free(page->first_error);
    page->glyphs = nullptr;
    page->first_error = nullptr;
    page->glyph_count = 0;
}
