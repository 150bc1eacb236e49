#include "TestPostgres.h"

#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtCore/QThread>
#include <QtCore/QUrl>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

#include <csignal>
#include <pwd.h>
#include <unistd.h>

namespace Aile::Test {

namespace {

// Debian keeps the server binaries out of PATH, one folder per major version.
QString findServerBin()
{
    if (const QString initdb = QStandardPaths::findExecutable(QStringLiteral("initdb")); !initdb.isEmpty())
        return QFileInfo(initdb).absolutePath();
    QDir lib(QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = lib.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    std::sort(versions.begin(), versions.end(), [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
    for (const QString &v : versions)
        if (QFileInfo::exists(lib.filePath(v + QStringLiteral("/bin/initdb"))))
            return lib.filePath(v + QStringLiteral("/bin"));
    return {};
}

int g_serial = 0;

} // namespace

TestPostgres::TestPostgres() = default;

TestPostgres::~TestPostgres()
{
    stop();
}

QStringList TestPostgres::asServerUser(const QStringList &command) const
{
    if (!m_asPostgres)
        return command;
    return QStringList{QStringLiteral("runuser"), QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("--")} + command;
}

bool TestPostgres::run(const QStringList &command, QString *output)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    const QStringList full = asServerUser(command);
    p.start(full.first(), full.mid(1));
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
    }
    if (output)
        *output = QString::fromLocal8Bit(p.readAll()).trimmed();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool TestPostgres::start()
{
    if (m_running)
        return true;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        m_reason = QStringLiteral("Qt's PostgreSQL driver is not installed (apt-get install libqt6sql6-psql)");
        return false;
    }
    if (m_bin.isEmpty())
        m_bin = findServerBin();
    if (m_bin.isEmpty()) {
        m_reason = QStringLiteral("PostgreSQL's server binaries are not installed (apt-get install postgresql)");
        return false;
    }
    // PostgreSQL refuses to run as root: under root the server runs as the package's system user.
    if (::geteuid() == 0) {
        const passwd *pw = ::getpwnam("postgres");
        if (!pw || QStandardPaths::findExecutable(QStringLiteral("runuser")).isEmpty()) {
            m_reason = QStringLiteral("running as root and there is no postgres user (or no runuser) to run PostgreSQL as");
            return false;
        }
        m_asPostgres = true;
        if (!m_dir) {
            m_dir = std::make_unique<QTemporaryDir>();
            if (::chown(QFile::encodeName(m_dir->path()).constData(), pw->pw_uid, pw->pw_gid) != 0) {
                m_reason = QStringLiteral("cannot give the temporary folder to the postgres user");
                return false;
            }
        }
    } else if (!m_dir) {
        m_dir = std::make_unique<QTemporaryDir>();
    }
    const QString data = m_dir->filePath(QStringLiteral("data"));
    QString out;
    if (!QFileInfo::exists(data)
        && !run({m_bin + QStringLiteral("/initdb"), QStringLiteral("-D"), data, QStringLiteral("-U"), QStringLiteral("aile"),
                 QStringLiteral("--auth=trust"), QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--no-sync")},
                &out)) {
        m_reason = QStringLiteral("initdb failed: %1").arg(out.right(400));
        return false;
    }
    // Only a Unix socket, in the test's folder: no TCP port at all, so no collision with anything.
    m_port = 5432;
    const QStringList command =
        asServerUser({m_bin + QStringLiteral("/postgres"), QStringLiteral("-D"), data, QStringLiteral("-k"), m_dir->path(), QStringLiteral("-p"),
                      QString::number(m_port), QStringLiteral("-c"), QStringLiteral("listen_addresses="), QStringLiteral("-c"),
                      QStringLiteral("fsync=off"), QStringLiteral("-c"), QStringLiteral("max_connections=200")});
    m_server.setProcessChannelMode(QProcess::MergedChannels);
    m_server.start(command.first(), command.mid(1));
    if (!m_server.waitForStarted(10000)) {
        m_reason = QStringLiteral("postgres did not start: %1").arg(m_server.errorString());
        return false;
    }
    // Ready when a connection to the maintenance database opens.
    QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired()) {
        bool ok = false;
        {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("test-postgres-probe"));
            d.setHostName(m_dir->path());
            d.setPort(m_port);
            d.setUserName(QStringLiteral("aile"));
            d.setDatabaseName(QStringLiteral("postgres"));
            ok = d.open();
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("test-postgres-probe"));
        if (ok) {
            m_running = true;
            return true;
        }
        if (m_server.state() == QProcess::NotRunning)
            break;
        QThread::msleep(50);
    }
    m_reason = QStringLiteral("postgres did not accept connections: %1").arg(QString::fromLocal8Bit(m_server.readAll()).right(400));
    stop();
    return false;
}

void TestPostgres::stop()
{
    if (m_server.state() == QProcess::NotRunning) {
        m_running = false;
        return;
    }
    // The postmaster's pid (runuser stands between us and it): SIGINT is its fast shutdown.
    QFile pidFile(m_dir->filePath(QStringLiteral("data/postmaster.pid")));
    if (pidFile.open(QIODevice::ReadOnly)) {
        const qint64 pid = pidFile.readLine().trimmed().toLongLong();
        if (pid > 0)
            ::kill(pid_t(pid), SIGINT);
    }
    if (!m_server.waitForFinished(20000)) {
        m_server.kill();
        m_server.waitForFinished();
    }
    m_running = false;
}

QString TestPostgres::url(const QString &database) const
{
    // Concatenated: the folder's percent-encoding ("%2F") must not meet QString::arg.
    return QStringLiteral("postgresql://aile@localhost/") + database + QStringLiteral("?host=")
           + QString::fromUtf8(QUrl::toPercentEncoding(m_dir->path())) + QStringLiteral("&port=") + QString::number(m_port);
}

QString TestPostgres::createDatabase(const QString &name)
{
    const QString database = QStringLiteral("%1_%2_%3").arg(name).arg(::getpid()).arg(++g_serial).toLower();
    {
        QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("test-postgres-admin"));
        d.setHostName(m_dir->path());
        d.setPort(m_port);
        d.setUserName(QStringLiteral("aile"));
        d.setDatabaseName(QStringLiteral("postgres"));
        if (d.open()) {
            QSqlQuery q(d);
            if (!q.exec(QStringLiteral("CREATE DATABASE \"%1\"").arg(database)))
                qWarning("CREATE DATABASE failed: %s", qPrintable(q.lastError().text()));
        }
        d.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("test-postgres-admin"));
    return url(database);
}

TestPostgres &sharedPostgres()
{
    static TestPostgres server;
    return server;
}

} // namespace Aile::Test
