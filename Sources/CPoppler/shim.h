#ifndef MONEYFLOW_CPOPPLER_SHIM_H
#define MONEYFLOW_CPOPPLER_SHIM_H
#include <glib.h>
#include <glib-object.h>
#include <poppler.h>

static inline void mf_object_unref(gpointer object) { g_object_unref(object); }
#endif
