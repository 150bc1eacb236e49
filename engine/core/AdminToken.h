#pragma once

#include <QtCore/QString>

namespace Aile::AdminToken {

/// The admin token `aile serve` makes on its first start without one, so that the `aile`
/// commands of the same user on the same machine reach the management API without a
/// configuration file: a file readable only by its owner in the data folder (and a copy in the
/// keychain when one answers). Both sides find it through the same data folder.

/// The variable that gives the token through the environment (it wins over the file).
inline constexpr char EnvironmentVariable[] = "AILE_ADMIN_TOKEN";
/// The keychain entry holding the copy.
QString keychainReference();
/// <dataDir>/admin-token
QString filePath(const QString &dataDir);
/// A fresh token: 32 random bytes, base64url.
QString generate();

/// Creates the file with mode 0600 (whatever the umask) holding token; refuses to replace one.
bool writeFile(const QString &path, const QString &token, QString *error);
/// The token in the file, trimmed; empty with *error set when it cannot be read. A file that
/// others could read is tightened to 0600 first and *tightened is set.
QString readFile(const QString &path, QString *error, bool *tightened = nullptr);

} // namespace Aile::AdminToken
