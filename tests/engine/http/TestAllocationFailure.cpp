// docs/hardening.md "Clients": an allocation failure is a refused request, never an abort of the
// process. The test makes the C library's allocator fail as it does on a machine out of memory
// (malloc and realloc return null with ENOMEM) for any block of FailAtBytes or more, while a
// request's body, or an upstream's answer, is held by the engine.
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonDocument>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <cerrno>
#include <cstdlib>
#include <memory>

#if defined(__SANITIZE_ADDRESS__)
#define AILE_ALLOCATOR_IS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AILE_ALLOCATOR_IS_SANITIZED 1
#endif
#endif

namespace {
// Allocations this large fail while the test arms them; nothing else in the process asks for
// such blocks (the test sends and answers in 64 KiB pieces).
constexpr std::size_t FailAtBytes = 4 * 1024 * 1024;
std::size_t g_failAt = 0;
int g_failures = 0;
} // namespace

#ifndef AILE_ALLOCATOR_IS_SANITIZED
// glibc lets a program replace malloc; the rest of the allocator (free, calloc) stays glibc's,
// which these forward to. Under ASan the sanitizer owns malloc, so this test skips there.
extern "C" void *__libc_malloc(std::size_t size);
extern "C" void *__libc_realloc(void *ptr, std::size_t size);

extern "C" void *malloc(std::size_t size)
{
    if (g_failAt && size >= g_failAt) {
        ++g_failures;
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_malloc(size);
}

extern "C" void *realloc(void *ptr, std::size_t size)
{
    if (g_failAt && size >= g_failAt) {
        ++g_failures;
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_realloc(ptr, size);
}
#endif

using namespace Aile;
using namespace Aile::Test;

namespace {
// Arms the failing allocator for one scope.
struct FailingAllocations
{
    FailingAllocations() { g_failAt = FailAtBytes, g_failures = 0; }
    ~FailingAllocations() { g_failAt = 0; }
};

// An upstream that answers every request with a non-streamed 200 of `bodyBytes` JSON bytes,
// written in 64 KiB pieces.
class LargeAnswerUpstream : public QTcpServer
{
public:
    qint64 bodyBytes = 0;

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        socket->setSocketDescriptor(descriptor);
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
            m_request += socket->readAll();
            const qsizetype end = m_request.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = m_request.left(end).toLower();
            const qsizetype at = head.indexOf("content-length:");
            const qint64 length = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            if (m_request.size() < end + 4 + length)
                return;
            m_request.clear();
            socket->write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(bodyBytes) + "\r\n\r\n");
            const QByteArray open = R"({"id":"x","object":"chat.completion","model":"gpt-5.2","pad":")";
            const QByteArray close = R"("})";
            socket->write(open);
            const QByteArray piece(64 * 1024, 'a');
            qint64 left = bodyBytes - open.size() - close.size();
            while (left > 0) {
                const qint64 n = std::min<qint64>(left, piece.size());
                socket->write(piece.constData(), n);
                left -= n;
            }
            socket->write(close);
        });
    }

private:
    QByteArray m_request;
};
} // namespace

class TestAllocationFailure : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
#ifdef AILE_ALLOCATOR_IS_SANITIZED
        QSKIP("the sanitizer owns malloc in this build; the normal build runs this test");
#endif
    }

    // A body the machine cannot hold: 503 in the wire's own error shape, the connection ends, and
    // the engine serves the next client.
    void aBodyThatCannotBeHeldIsA503()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        TestEngine engine(basicConfig(upstream.baseUrl()));
        QVERIFY2(engine.start(), qPrintable(engine.startError()));

        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, engine.port());
        QVERIFY(client.waitForConnected(2000));
        const qint64 bodyBytes = 8 * 1024 * 1024;
        client.write("POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(engine.port())
                     + "\r\ncontent-type: application/json\r\nx-api-key: " + TestKey + "\r\ncontent-length: " + QByteArray::number(bodyBytes)
                     + "\r\n\r\n");
        QByteArray answer;
        {
            FailingAllocations failing;
            const QByteArray piece(64 * 1024, ' ');
            for (qint64 sent = 0; sent < bodyBytes && client.state() == QAbstractSocket::ConnectedState; sent += piece.size()) {
                client.write(piece);
                // Let the engine read what was sent so far, and see whether it answered already.
                (void)QTest::qWaitFor([&] { return client.bytesToWrite() == 0 || client.state() != QAbstractSocket::ConnectedState; }, 2000);
                answer += client.readAll();
                if (!answer.isEmpty())
                    break;
            }
            (void)QTest::qWaitFor([&] { return (answer += client.readAll(), answer.contains("\r\n\r\n{") && answer.endsWith('}')); }, 5000);
            QVERIFY2(g_failures > 0, "no allocation of 4 MiB or more was asked for: the test proves nothing");
        }
        QVERIFY2(answer.startsWith("HTTP/1.1 503 "), answer.left(200).constData());
        QVERIFY(answer.contains("connection: close"));
        const QJsonObject error = QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).object();
        QCOMPARE(error.value("type").toString(), QStringLiteral("error")); // the Messages wire's shape
        QVERIFY(error.value("error").toObject().value("message").toString().contains(QLatin1String("out of memory")));

        const Reply health = send(QStringLiteral("GET"), engine.baseUrl() + QStringLiteral("/health"));
        QCOMPARE(health.status, 200);
        const Reply next = send(QStringLiteral("POST"), engine.baseUrl() + QStringLiteral("/v1/chat/completions"),
                                R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})",
                                {{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}});
        QVERIFY2(next.status == 200, next.body.constData());
    }

    // An upstream answer the machine cannot hold: that attempt fails (out_of_memory, the sharer not
    // benched), the client gets the wire's error, the attempt is in the trace, and the engine goes on.
    void anAnswerThatCannotBeHeldFailsTheAttempt()
    {
        LargeAnswerUpstream upstream;
        upstream.bodyBytes = 8 * 1024 * 1024;
        QVERIFY(upstream.listen(QHostAddress::LocalHost));
        ManualClock clock;
        TestEngine engine(basicConfig(QStringLiteral("http://127.0.0.1:%1").arg(upstream.serverPort())), &clock);
        QVERIFY2(engine.start(), qPrintable(engine.startError()));

        Reply reply;
        {
            FailingAllocations failing;
            reply = send(QStringLiteral("POST"), engine.baseUrl() + QStringLiteral("/v1/chat/completions"),
                         R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})",
                         {{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}});
            QVERIFY2(g_failures > 0, "no allocation of 4 MiB or more was asked for: the test proves nothing");
        }
        QVERIFY2(reply.status == 503, reply.body.constData());            // every sharer failed: the engine's 503
        const QJsonObject error = reply.json().value("error").toObject(); // the Chat wire's shape
        QVERIFY2(error.value("message").toString().contains(QLatin1String("out of memory")), reply.body.constData());

        const QJsonArray attempts =
            QJsonDocument::fromJson(send(QStringLiteral("GET"), engine.baseUrl() + QStringLiteral("/keys/usage/requests?limit=1"), {},
                                         {{"authorization", QByteArray("Bearer ") + AdminToken}})
                                        .body)
                .object()
                .value("data")
                .toArray()
                .first()
                .toObject()
                .value("attemptRows")
                .toArray();
        QCOMPARE(attempts.size(), 1);
        // The machine's memory, not the sharer's doing: nobody is benched (docs/hardening.md).
        QCOMPARE(attempts.first().toObject().value("outcome").toString(), QStringLiteral("out_of_memory"));
        QVERIFY(attempts.first().toObject().value("reason").toString().contains(QLatin1String("out of memory")));

        // Memory back: the same sharer relays the same answer whole at once, no cooldown to wait out.
        upstream.bodyBytes = 1024;
        const Reply next = send(QStringLiteral("POST"), engine.baseUrl() + QStringLiteral("/v1/chat/completions"),
                                R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})",
                                {{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}});
        QVERIFY2(next.status == 200, next.body.constData());
        QCOMPARE(next.body.size(), 1024);
    }
};

QTEST_GUILESS_MAIN(TestAllocationFailure)
#include "TestAllocationFailure.moc"
