#include "ToolPathTest.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

#include <memory>

namespace Aile::Ui {

ToolPathTest::ToolPathTest(QObject *parent) : QObject(parent), m_network(new QNetworkAccessManager(this)) { }

void ToolPathTest::run(const QList<Clients::RequestStep> &steps, std::function<void(const QList<ToolPathStepResult> &)> done)
{
    m_steps = steps;
    m_results.clear();
    m_done = std::move(done);
    next();
}

void ToolPathTest::next()
{
    if (m_results.size() == m_steps.size() || (!m_results.isEmpty() && m_results.last().status == 0)) {
        if (m_done)
            m_done(m_results);
        return;
    }
    const Clients::RequestStep &step = m_steps.at(m_results.size());
    QNetworkRequest request{QUrl(step.url)};
    for (const auto &h : step.headers)
        request.setRawHeader(h.first, h.second);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setTransferTimeout(60000);
    auto elapsed = std::make_shared<QElapsedTimer>();
    elapsed->start();
    // HEAD and GET through their own calls: a custom HEAD would wait for the body its length announces.
    QNetworkReply *reply = step.method == "HEAD"  ? m_network->head(request)
                           : step.method == "GET" ? m_network->get(request)
                                                  : m_network->sendCustomRequest(request, step.method, step.body);
    const QString label = step.label;
    connect(reply, &QNetworkReply::finished, this, [this, reply, elapsed, label] {
        reply->deleteLater();
        ToolPathStepResult r;
        r.label = label;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.elapsedMs = elapsed->elapsed();
        r.traceId = QString::fromUtf8(reply->rawHeader("x-aile-request-id"));
        r.sharer = QString::fromUtf8(reply->rawHeader("x-aile-sharer"));
        if (r.status == 0)
            r.error = reply->errorString();
        else if (r.status >= 400)
            r.error = QJsonDocument::fromJson(reply->readAll())
                          .object()
                          .value(QLatin1String("error"))
                          .toObject()
                          .value(QLatin1String("message"))
                          .toString();
        m_results << r;
        next();
    });
}

} // namespace Aile::Ui
