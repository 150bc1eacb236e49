#pragma once

#include <QtCore/QHash>
#include <QtCore/QString>

namespace Aile::Secrets {

/// Whether an environment variable is one the engine (or the Qt and system libraries under it)
/// reads for itself: the admin token's variable, the AILE_* variables the engine and the CLI read,
/// and the process's own plumbing (proxy settings, the session bus, HOME, XDG_*, QT_*, SSL_*…).
bool isEngineVariable(const QString &name, const QString &adminTokenRef);

/// Empty, or why the management API may not give the credential reference `ref` to the sharer
/// `handle` that dials `url` (docs/secrets.md "Through the management API"): a variable the
/// engine reads for itself, the app's own keychain entry of another sharer, or a reference whose
/// secret belongs to another base URL (homes: reference → the base URL it was entered for).
/// A configuration file the user wrote is not held to this.
QString apiReferenceRefusal(const QString &ref, const QString &handle, const QString &url, const QString &adminTokenRef,
                            const QHash<QString, QString> &homes);

} // namespace Aile::Secrets
