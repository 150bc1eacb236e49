#include "ReferencePolicy.h"

#include "SecretStore.h"

namespace Aile::Secrets {

bool isEngineVariable(const QString &name, const QString &adminTokenRef)
{
    const std::optional<Reference> admin = Reference::parse(adminTokenRef);
    if (admin && admin->scheme == Reference::Env && admin->name == name)
        return true;
    const QString upper = name.toUpper();
    // The engine's own namespace: what it and the CLI read now, and any token or admin secret
    // it may read later. Other AILE_ names (a user's AILE_WORK_KEY) stay usable.
    if (upper.startsWith(QLatin1String("AILE_"))
        && (upper.contains(QLatin1String("TOKEN")) || upper.contains(QLatin1String("ADMIN")) || upper == QLatin1String("AILE_URL")
            || upper == QLatin1String("AILE_DEBUG") || upper.contains(QLatin1String("SECRET")) || upper.contains(QLatin1String("PASSWORD"))))
        return true;
    // What the process itself is run with: proxies (which may carry a password), the session bus
    // the keychain is reached over, the folders it keeps data in, and the libraries' switches.
    static const char *const exact[] = {"HTTP_PROXY",
                                        "HTTPS_PROXY",
                                        "ALL_PROXY",
                                        "NO_PROXY",
                                        "FTP_PROXY",
                                        "HOME",
                                        "USER",
                                        "LOGNAME",
                                        "PATH",
                                        "SHELL",
                                        "DISPLAY",
                                        "WAYLAND_DISPLAY",
                                        "DBUS_SESSION_BUS_ADDRESS",
                                        "DBUS_SYSTEM_BUS_ADDRESS",
                                        "SSH_AUTH_SOCK",
                                        "GNOME_KEYRING_CONTROL",
                                        "KDE_FULL_SESSION",
                                        "TMPDIR"};
    for (const char *v : exact)
        if (upper == QLatin1String(v))
            return true;
    for (const char *prefix : {"XDG_", "QT_", "SSL_", "LD_", "DESKTOP_SESSION", "KWALLET"})
        if (upper.startsWith(QLatin1String(prefix)))
            return true;
    return false;
}

QString apiReferenceRefusal(const QString &ref, const QString &handle, const QString &url, const QString &adminTokenRef,
                            const QHash<QString, QString> &homes)
{
    const std::optional<Reference> r = Reference::parse(ref);
    if (!r)
        return {}; // not a reference: the sharer's own parser says so, without quoting it
    if (r->scheme == Reference::Env && isEngineVariable(r->name, adminTokenRef))
        return QStringLiteral("env:%1 names a variable the engine reads for itself, which the management API may not hand to a "
                              "sharer; give the credential itself as \"secret\", or name a variable of its own")
            .arg(r->name);
    // The app's own entries (keychain:aile-sharer-<handle>) are written only with a "secret".
    static const QString own = QStringLiteral("aile-sharer-");
    if (r->scheme != Reference::Env && r->name.startsWith(own) && r->name.mid(own.size()).compare(handle, Qt::CaseInsensitive) != 0)
        return QStringLiteral("%1 is the credential Aile stored for another sharer; give this sharer's own key as \"secret\"").arg(ref);
    const auto home = homes.constFind(ref);
    if (home != homes.constEnd() && *home != url)
        return QStringLiteral("%1 holds the credential entered for %2, and a credential is only sent where it was entered for; "
                              "give the key for %3 as \"secret\"")
            .arg(ref, home->isEmpty() ? QStringLiteral("its provider's own address") : *home, url.isEmpty() ? QStringLiteral("this sharer") : url);
    return {};
}

} // namespace Aile::Secrets
