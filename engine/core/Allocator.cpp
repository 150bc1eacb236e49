#include "Allocator.h"

#include <dlfcn.h>

#include <cstddef>

namespace Aile {

QString mallocName()
{
    // jemalloc's control interface: present in the process exactly when jemalloc is its malloc.
    using MallCtl = int (*)(const char *, void *, std::size_t *, void *, std::size_t);
    if (const auto mallctl = reinterpret_cast<MallCtl>(::dlsym(RTLD_DEFAULT, "mallctl"))) {
        const char *version = nullptr;
        std::size_t size = sizeof version;
        if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)
            return QStringLiteral("jemalloc ") + QString::fromLatin1(version);
        return QStringLiteral("jemalloc");
    }
    return QStringLiteral("the C library's malloc");
}

} // namespace Aile
