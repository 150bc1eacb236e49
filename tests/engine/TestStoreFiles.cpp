// Issue 14 (Secrets): the data folder is 0700 and the database with its -wal and -shm files 0600
// whatever the umask; a store left readable by others is tightened at start, with a log line.
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QDir>
#include <QtTest/QtTest>

#include <sys/stat.h>

using namespace Aile;
using namespace Aile::Test;

namespace {

QStringList g_messages;

void keepMessage(QtMsgType, const QMessageLogContext &, const QString &message)
{
    g_messages.append(message);
}

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

QString octal(int mode)
{
    return QString::number(mode, 8);
}

} // namespace

class TestStoreFiles : public QObject
{
    Q_OBJECT
private:
    mode_t m_umask = 022;
    std::unique_ptr<FakeUpstream> m_upstream;

    QStringList storeFiles(const QString &data) const
    {
        QStringList out{data + QStringLiteral("/aile.db")};
        for (const char *suffix : {"-wal", "-shm"})
            if (QFile::exists(data + QStringLiteral("/aile.db") + QLatin1String(suffix)))
                out << data + QStringLiteral("/aile.db") + QLatin1String(suffix);
        for (const QString &j : QDir(data).entryList({QStringLiteral("ledger-journal-*")}, QDir::Files))
            out << data + QLatin1Char('/') + j;
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Whatever the umask: the most permissive one shows it.
        m_umask = ::umask(0);
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
    }
    void cleanupTestCase() { ::umask(m_umask); }

    void aNewStoreIsPrivateUnderUmaskZero()
    {
        TestEngine engine(basicConfig(m_upstream->baseUrl()));
        QVERIFY(!QFile::exists(engine.dataDir() + QStringLiteral("/data")));
        QVERIFY(engine.start());
        const QString data = engine.dataDir() + QStringLiteral("/data");
        QCOMPARE(octal(modeOf(data)), QStringLiteral("700"));
        const QStringList files = storeFiles(data);
        QVERIFY2(files.size() >= 3, qPrintable(files.join(QLatin1Char(' ')))); // the database, its WAL, the journal at least
        for (const QString &f : files)
            QVERIFY2(modeOf(f) == 0600, qPrintable(f + QStringLiteral(": ") + octal(modeOf(f))));
    }

    void aReadableStoreIsTightenedAtStart()
    {
        TestEngine engine(basicConfig(m_upstream->baseUrl()));
        QVERIFY(engine.start());
        const QString data = engine.dataDir() + QStringLiteral("/data");
        // As an older version, or a copy with `cp -r` under a lax umask, left it.
        QVERIFY(::chmod(QFile::encodeName(data).constData(), 0755) == 0);
        for (const QString &f : storeFiles(data))
            QVERIFY(::chmod(QFile::encodeName(f).constData(), 0644) == 0);
        g_messages.clear();
        const QtMessageHandler previous = qInstallMessageHandler(keepMessage);
        const bool restarted = engine.restart();
        qInstallMessageHandler(previous);
        QVERIFY(restarted);
        QCOMPARE(octal(modeOf(data)), QStringLiteral("700"));
        for (const QString &f : storeFiles(data))
            QVERIFY2(modeOf(f) == 0600, qPrintable(f + QStringLiteral(": ") + octal(modeOf(f))));
        const QString said = g_messages.join(QLatin1Char('\n'));
        QVERIFY2(said.contains(QStringLiteral("the data folder %1 was readable by other users (mode 0755); tightened to 0700").arg(data)),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("the database file %1/aile.db was readable by other users (mode 0644); tightened to 0600").arg(data)),
                 qPrintable(said));
    }
};

QTEST_GUILESS_MAIN(TestStoreFiles)
#include "TestStoreFiles.moc"
