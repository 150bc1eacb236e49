#pragma once

// The real inbound listener on port 0 with a raw client socket, shared by the engine/http tests
// that drive exchanges by hand (TestExchangeWrites, TestExchangeListener).
#include "core/Clock.h"
#include "http/HttpHeaders.h"
#include "http/HttpServer.h"

#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <functional>
#include <memory>

namespace Aile::Test {

inline Http::HttpHeaders textHeaders()
{
    Http::HttpHeaders h;
    h.add("content-type", "text/plain");
    return h;
}

inline QByteArray getRequest(const QByteArray &path)
{
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

struct ServerFixture
{
    ManualClock clock;
    std::unique_ptr<Http::HttpServer> server;
    std::unique_ptr<QTcpSocket> client;

    bool listen(Http::IRequestHandler *handler)
    {
        server = std::make_unique<Http::HttpServer>(&clock, handler);
        QString error;
        if (!server->listen(QHostAddress::LocalHost, 0, &error))
            qWarning() << error;
        return server->port() != 0;
    }

    bool connectClient()
    {
        client = std::make_unique<QTcpSocket>();
        client->connectToHost(QHostAddress::LocalHost, server->port());
        return client->waitForConnected(5000);
    }

    // Reads until `needle` has arrived (the event loop runs meanwhile: no sleeping).
    bool readUntil(const QByteArray &needle, QByteArray &got, int timeoutMs = 5000)
    {
        return QTest::qWaitFor(
            [&] {
                got += client->readAll();
                return got.contains(needle);
            },
            timeoutMs);
    }

    void reset()
    {
        client.reset();
        server.reset();
    }
};

} // namespace Aile::Test
