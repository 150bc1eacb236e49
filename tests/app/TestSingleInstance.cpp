// docs/gui.md "One window": one aile-desktop per user and data folder. A second launch hands its
// arguments to the running window, which comes to the front, and exits 0; --new-instance opts out.
// The real executable, offscreen, with its own runtime, state and data folders.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <memory>

class TestSingleInstance : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    std::vector<std::unique_ptr<QProcess>> m_running;

    QString path(const QString &name) const { return m_home.filePath(name); }

    // Each launch gets the same runtime folder (where the instance socket lives) and data folder,
    // and a state folder of its own, so each has its own log file to read.
    std::unique_ptr<QProcess> launch(const QString &state, const QStringList &more = {})
    {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("run")));
        env.insert(QStringLiteral("XDG_STATE_HOME"), path(state));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
        p->setProcessEnvironment(env);
        p->setProgram(QStringLiteral(AILE_DESKTOP_BIN));
        p->setArguments(
            QStringList{QStringLiteral("--data-dir"), path(QStringLiteral("data")), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}
            + more);
        p->start();
        return p;
    }
    QByteArray logOf(const QString &state) const
    {
        QFile f(QDir(path(state)).filePath(QStringLiteral("aile/aile.log")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(QDir().mkpath(path(QStringLiteral("run"))));
        QFile::setPermissions(path(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void cleanupTestCase()
    {
        for (auto &p : m_running) {
            p->kill();
            p->waitForFinished(5000);
        }
    }

    void aSecondLaunchRaisesTheFirstAndExits()
    {
        m_running.push_back(launch(QStringLiteral("state-first")));
        QProcess *first = m_running.back().get();
        QVERIFY(first->waitForStarted(5000));
        // The first is up once its engine listens (its log says so).
        QTRY_VERIFY_WITH_TIMEOUT(logOf(QStringLiteral("state-first")).contains("listening on 127.0.0.1:"), 20000);
        // The window's process runs on the malloc the build links (cmake/Allocator.cmake).
        QVERIFY(logOf(QStringLiteral("state-first"))
                    .contains(qstrcmp(AILE_MALLOC, "jemalloc") == 0 ? "memory allocator: jemalloc 5." : "memory allocator: the C library's malloc"));

        const std::unique_ptr<QProcess> second = launch(QStringLiteral("state-second"));
        QVERIFY(second->waitForFinished(2000));
        QCOMPARE(second->exitStatus(), QProcess::NormalExit);
        QCOMPARE(second->exitCode(), 0);
        QVERIFY2(second->readAllStandardOutput().contains("already open"), "the second launch says where the window is");
        QTRY_VERIFY_WITH_TIMEOUT(logOf(QStringLiteral("state-first")).contains("launched again for this data folder"), 5000);
        QCOMPARE(first->state(), QProcess::Running);
        // The second started nothing: no engine, no log of its own.
        QVERIFY(logOf(QStringLiteral("state-second")).isEmpty());
    }

    void newInstanceStartsAWindowOfItsOwn()
    {
        m_running.push_back(launch(QStringLiteral("state-third"), {QStringLiteral("--new-instance")}));
        QVERIFY(m_running.back()->waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(logOf(QStringLiteral("state-third")).contains("listening on 127.0.0.1:"), 20000);
        QCOMPARE(m_running.back()->state(), QProcess::Running);
    }
};

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "TestSingleInstance.moc"
