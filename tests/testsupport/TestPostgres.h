#pragma once

#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QTemporaryDir>

#include <memory>

namespace Aile::Test {

/// A real PostgreSQL server of the test's own (Debian's postgresql package): `initdb` into a
/// temporary folder, `postgres` listening only on a Unix socket in that folder (no TCP port to
/// collide with), torn down with the object. PostgreSQL refuses to run as root, so under root the
/// server runs as the `postgres` system user the package creates (runuser).
///
/// When it cannot run (no PostgreSQL binaries, no postgres user, initdb failing), start() returns
/// false and skipReason() says why, for QSKIP.
class TestPostgres
{
public:
    TestPostgres();
    ~TestPostgres();
    TestPostgres(const TestPostgres &) = delete;
    TestPostgres &operator=(const TestPostgres &) = delete;

    bool start();
    bool isRunning() const { return m_running; }
    QString skipReason() const { return m_reason; }

    /// A new empty database on this server; its store location (a postgresql:// URL).
    QString createDatabase(const QString &name);
    /// The location of a database made by createDatabase.
    QString url(const QString &database) const;

    /// Stops the server (fast shutdown); start() again serves the same data.
    void stop();

private:
    bool run(const QStringList &command, QString *output);
    QStringList asServerUser(const QStringList &command) const;
    QString m_bin;
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_server;
    bool m_running = false;
    bool m_asPostgres = false;
    int m_port = 0;
    QString m_reason;
};

/// The one server a test binary shares (started on first use; databases are made per test).
TestPostgres &sharedPostgres();

} // namespace Aile::Test
