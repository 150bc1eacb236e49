#pragma once

#include <QtCore/QString>

namespace Aile::Store {

/// The data folder, private to its user whatever the umask: created 0700, and an existing one
/// readable or writable by others tightened to 0700 with a log line. False (and why) when it
/// cannot be created.
bool prepareDataFolder(const QString &dir, QString *error);

/// The database and its SQLite companions (-wal, -shm): the database is created 0600 before
/// SQLite first opens it (SQLite gives the companions its mode), and any of them with group or
/// other permission bits is tightened to 0600 with a log line. ":memory:" is left alone.
void secureDatabaseFiles(const QString &databasePath);

/// Opens a file for appending, created 0600 whatever the umask (fchmod after open); -1 on failure.
int openPrivateAppend(const QString &path);

} // namespace Aile::Store
