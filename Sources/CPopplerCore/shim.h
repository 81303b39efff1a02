#ifndef MONEYFLOW_CPOPPLERCORE_SHIM_H
#define MONEYFLOW_CPOPPLERCORE_SHIM_H
/* poppler's own C++ library (libpoppler, headers from libpoppler-private-dev). This module only
   carries the pkg-config flags (-I/usr/include/poppler, -lpoppler) to CPopplerText, the C++
   target that includes poppler's headers; nothing here is imported by Swift. */
#endif
