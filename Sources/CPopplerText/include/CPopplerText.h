#ifndef MONEYFLOW_CPOPPLERTEXT_H
#define MONEYFLOW_CPOPPLERTEXT_H
/* A plain C interface to poppler's text extraction (libpoppler's C++ API, driven directly):
   per page, every glyph's Unicode scalar, box and font size. C, not C++, so Swift imports it
   without C++ interoperability. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open PDF (owns a copy of its bytes). Use it from one thread at a time. */
typedef struct mf_pdf_document mf_pdf_document;

/* Why mf_pdf_open returned NULL. */
typedef enum {
    MF_PDF_OPEN_OK = 0,
    /* Encrypted, and the password (or its absence) does not open it. */
    MF_PDF_OPEN_ENCRYPTED = 1,
    /* Anything else poppler refuses (bad catalog, damaged structure, ...): see the message. */
    MF_PDF_OPEN_DAMAGED = 2
} mf_pdf_open_status;

/* One glyph: a non-whitespace Unicode scalar (U+FFFD for a value that is not a scalar), its box
   in points with the origin at the page's top-left corner, and its word's font size. */
typedef struct {
    uint32_t scalar;
    double x0, y0, x1, y1;
    double font_size;
} mf_pdf_glyph;

/* One page as read: its size in points (rotation applied), its glyphs in content-stream order
   (malloc'd), and the errors poppler reported while interpreting it (a damaged content stream). */
typedef struct {
    double width, height;
    mf_pdf_glyph *glyphs;
    size_t glyph_count;
    /* Errors reported while reading the page (at most 100 are counted). */
    int error_count;
    /* The first one, e.g. "Syntax error at position 55504: Illegal character ')'" (malloc'd, or NULL). */
    char *first_error;
} mf_pdf_page;

/* Opens a PDF held in memory (the bytes are copied). `password` NULL means none. On failure
   returns NULL, sets *status and points *message at a static description. */
mf_pdf_document *mf_pdf_open(const void *data, size_t length, const char *password, mf_pdf_open_status *status,
                             const char **message);
void mf_pdf_close(mf_pdf_document *document);
int mf_pdf_page_count(mf_pdf_document *document);

/* Reads page `index` (0-based) into *page; free it with mf_pdf_page_free. Returns 0 when the
   page cannot be loaded (then *page is empty), 1 otherwise. */
int mf_pdf_read_page(mf_pdf_document *document, int index, mf_pdf_page *page);
void mf_pdf_page_free(mf_pdf_page *page);

#ifdef __cplusplus
}
#endif
#endif
