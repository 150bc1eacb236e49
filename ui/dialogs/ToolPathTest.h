#pragma once

#include "clients/ToolRequestPath.h"

#include <QtCore/QObject>

#include <functional>

class QNetworkAccessManager;

namespace Aile::Ui {

/// What one step of a tool's start-up path got back.
struct ToolPathStepResult
{
    QString label;  // "HEAD /", "POST /v1/messages"
    int status = 0; // 0: no answer
    qint64 elapsedMs = 0;
    QString traceId; // x-aile-request-id, when the proxy traced it
    QString sharer;  // x-aile-sharer
    QString error;   // the transport's or the proxy's message
};

/// Runs a tool's start-up requests (Clients::ToolRequestPath) one after the other through the
/// proxy, as the tool would, and hands back what each got; a step without an answer ends the run.
/// Streamed answers are read to their end.
class ToolPathTest : public QObject
{
    Q_OBJECT
public:
    explicit ToolPathTest(QObject *parent = nullptr);
    void run(const QList<Clients::RequestStep> &steps, std::function<void(const QList<ToolPathStepResult> &)> done);

private:
    void next();

    QNetworkAccessManager *m_network;
    QList<Clients::RequestStep> m_steps;
    QList<ToolPathStepResult> m_results;
    std::function<void(const QList<ToolPathStepResult> &)> m_done;
};

} // namespace Aile::Ui
