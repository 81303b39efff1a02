#ifndef MONEYFLOW_CPOPPLER_SHIM_H
#define MONEYFLOW_CPOPPLER_SHIM_H
#include <glib.h>
#include <glib-object.h>
#include <poppler.h>

static inline void mf_object_unref(gpointer object) { g_object_unref(object); }

/// Error domains reported by mf_document_new_from_data through *error_domain.
enum {
    MF_ERROR_DOMAIN_NONE = 0,
    MF_ERROR_DOMAIN_POPPLER = 1,
    MF_ERROR_DOMAIN_OTHER = 2
};

/// Opens a PDF from memory (the bytes are copied; the document keeps its own reference).
/// A NULL password means none.
/// On failure returns NULL and fills *error_domain, *error_code (a PopplerError when the domain is
/// MF_ERROR_DOMAIN_POPPLER) and *error_message (free with g_free; may be NULL).
static inline PopplerDocument *mf_document_new_from_data(const void *data, gsize length, const char *password,
                                                         gint *error_domain, gint *error_code, gchar **error_message) {
    GBytes *bytes = g_bytes_new(data, length);
    GError *error = NULL;
    PopplerDocument *document;
    if (password == NULL) {
        document = poppler_document_new_from_bytes(bytes, NULL, &error);
    } else {
        /* poppler 22.x: new_from_bytes/new_from_data crash (NULL stream) when the password is
           wrong, in their retry with the UTF-8 password. The stream constructor is safe. */
        GInputStream *stream = g_memory_input_stream_new_from_bytes(bytes);
        document = poppler_document_new_from_stream(stream, (goffset)length, password, NULL, &error);
        g_object_unref(stream);
    }
    g_bytes_unref(bytes);
    *error_domain = MF_ERROR_DOMAIN_NONE;
    *error_code = 0;
    *error_message = NULL;
    if (document == NULL) {
        if (error != NULL) {
            *error_domain = (error->domain == POPPLER_ERROR) ? MF_ERROR_DOMAIN_POPPLER : MF_ERROR_DOMAIN_OTHER;
            *error_code = error->code;
            *error_message = g_strdup(error->message);
            g_error_free(error);
        } else {
            *error_domain = MF_ERROR_DOMAIN_OTHER;
        }
    } else if (error != NULL) {
        g_error_free(error);
    }
    return document;
}

static inline void mf_text_attributes_list_free(GList *list) {
    g_list_free_full(list, (GDestroyNotify)poppler_text_attributes_free);
}
#endif
