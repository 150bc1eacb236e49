#pragma once

#include "api/values/ChartFigures.h"
#include "api/values/DryRunPlan.h"
#include "api/values/KeyInfo.h"
#include "api/values/ReplayResult.h"
#include "api/values/SharerRow.h"
#include "clients/ClientSnippets.h"
#include "host/Engine.h"
#include "store/TraceRecord.h"

namespace Aile::Store {
struct TraceQuery;
}

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

class IManagementTransport;

/// An answer of the management API: the HTTP status, the typed value on success, and the
/// engine's own message (cause and fix) otherwise.
template <typename T> struct Reply
{
    int status = 0; // 0: no engine answered (the proxy is not running)
    T value{};
    QString error;
    bool ok() const { return status >= 200 && status < 300; }
};

/// What the Sharers page asks GET /sharers for (the x-aile-* filters a request would carry).
struct SharerQuery
{
    QString model; // provider/model; empty: every sharer by handle
    QString provider;
    QString maxPrice;
    QString minPrice;
    bool verified = false;
    QString sort; // name, price, speed; empty: the routing order
    QString path() const;
};

/// What one request through the proxy got (Connect a tool's Test connection).
struct ToolTestResult
{
    int status = 0; // 0: the proxy was not reached
    qint64 elapsedMs = 0;
    QString sharer;  // the handle that served it (x-aile-sharer)
    QString traceId; // x-aile-request-id
    QString error;   // the network's words (status 0) or the proxy's message (an error status)
};

/// One page of GET /keys/usage/requests: the rows and how many match in all.
struct TracePage
{
    QList<Store::TraceRecord> rows;
    int total = 0;
};

/// The GUI's one way to the engine: every view and dialog calls the management API through this
/// client and gets typed values (engine/api/values) back. Where the engine is (embedded, or
/// another process over HTTP) is the transport's business, never a view's. Never blocks; an
/// answer whose context object is gone is dropped.
class ManagementClient : public QObject
{
    Q_OBJECT
public:
    template <typename T> using Handler = std::function<void(const Reply<T> &)>;

    /// The embedded engine, in-process (InProcessTransport). Without a host every call answers 0.
    explicit ManagementClient(EngineHost *host, QObject *parent = nullptr);
    /// Any transport; the client owns it.
    explicit ManagementClient(std::unique_ptr<IManagementTransport> transport, QObject *parent = nullptr);

    int pending() const;
    /// Starts tracesRecorded: the engine's finished requests in batches, wherever it runs.
    void watchTraces();
    /// Asks the engine's status (GET /admin/status); statusChanged follows when it answers.
    /// The same comes by itself after every change made through this client.
    void requestStatus();
    /// GET /admin/status once, for whoever asks (who runs the engine: pid, program).
    void status(QObject *context, Handler<Api::EngineStatus> done);
    /// POST /admin/shutdown: the engine stops and closes its port (Take over).
    void shutdown(QObject *context, Handler<QJsonObject> done);
    /// Replaces the way to the engine (attach, connect to a team server, back to the embedded
    /// one): calls in flight on the old transport are dropped; the views keep this client.
    void setTransport(std::unique_ptr<IManagementTransport> transport);
    IManagementTransport *transport() const { return m_transport; }

    // Sharers (docs/management-api.md)
    void sharers(const SharerQuery &query, QObject *context, Handler<Api::SharerListing> done);
    /// POST /sharers (handle empty) or PUT /sharers/{handle}; the answer is the stored sharer.
    void saveSharer(const QString &handle, const QJsonObject &sharer, QObject *context, Handler<QJsonObject> done);
    void removeSharer(const QString &handle, QObject *context, Handler<QJsonObject> done);
    void relinkSharer(const QString &handle, const QJsonObject &credential, QObject *context, Handler<QJsonObject> done);
    void testSharer(const QString &handle, const QString &model, QObject *context, Handler<Api::SharerCheck> done);
    void probeSharer(const QString &handle, QObject *context, Handler<Api::SharerCheck> done);
    /// POST /admin/config: a document in the configuration file's format (a custom provider).
    void importConfig(const QJsonObject &document, QObject *context, Handler<QJsonObject> done);
    /// GET /catalog: the providers and models the engine knows.
    void catalog(QObject *context, Handler<QJsonObject> done);

    // Keys and routes
    void keys(QObject *context, Handler<QList<Api::KeyInfo>> done);
    void key(const QString &id, QObject *context, Handler<Api::KeyInfo> done);
    void createKey(const QString &name, QObject *context, Handler<Api::CreatedKey> done);
    /// PUT /keys/{id} with the fields to replace (name, routing, routes).
    void updateKey(const QString &id, const QJsonObject &changes, QObject *context, Handler<Api::KeyInfo> done);
    void saveRoutes(const QString &id, const QList<Api::RouteValue> &routes, QObject *context, Handler<Api::KeyInfo> done);
    void revokeKey(const QString &id, QObject *context, Handler<QJsonObject> done);
    void dryRun(const Api::DryRunAsk &ask, QObject *context, Handler<Api::DryRunPlan> done);
    /// GET /keys/route-template?model=…&key=…: one target per provider that lists the model.
    void routeTemplate(const QString &model, const QString &keyId, QObject *context, Handler<QJsonObject> done);
    /// POST /keys/route-replay (docs/replay.md): ask is {"key", "days", "routing"?, "route"?, "scope"?}.
    void routeReplay(const QJsonObject &ask, QObject *context, Handler<Api::ReplayResult> done);

    /// GET /keys/usage/charts: what the Charts page draws, summed by the engine (ask.now 0: the
    /// engine's clock).
    void charts(const Api::Charts::ChartAsk &ask, QObject *context, Handler<Api::Charts::ChartFigures> done);

    // Traces
    void traces(const Store::TraceQuery &query, QObject *context, Handler<QList<Store::TraceRecord>> done);
    /// POST /traces/{id}/actions: clear-cooldown, mark-fixed or retest on one sharer of the
    /// trace's attempt rows (model: for retest; empty takes the attempt's). The engine records it.
    void traceAction(const QString &traceId, const QString &action, const QString &sharer, const QString &model, QObject *context,
                     Handler<QJsonObject> done);
    /// The same with the total count (the Traces page's paging when no store file is at hand).
    void tracePage(const Store::TraceQuery &query, QObject *context, Handler<TracePage> done);

    /// One small request through the proxy at baseUrl, on the wire a tool speaks, with its key and
    /// model, exactly as the tool would send it (an ordinary HTTP client: it is charged and traced).
    /// ownLogin: the key travels in x-aile-key, as a tool that sends its own subscription login
    /// does (docs/subscriptions.md); the test has no login, so it shows the tool's fallback.
    void testTool(const QString &baseUrl, Clients::ClientSnippets::Wire wire, const QString &key, const QString &model, QObject *context,
                  std::function<void(const ToolTestResult &)> done, bool ownLogin = false);

    /// The engine's own message of an error answer ({"error": {"message": …}}), or a generic one.
    static QString errorMessage(int status, const QJsonDocument &body);

Q_SIGNALS:
    /// After watchTraces(): a batch of finished requests, about every 100 ms while requests finish.
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);
    /// Live batches were lost on the way (a cut stream): the history shown should be read again.
    void tracesMissed();
    /// The engine's status (sharers, keys, providers, keychain, who runs it).
    void statusChanged(const Aile::Api::EngineStatus &status);
    /// setTransport: another engine now; every view should read again.
    void transportChanged();

private:
    using Raw = std::function<void(int status, const QJsonDocument &body)>;
    void send(const QString &method, const QString &path, const QJsonObject &body, QObject *context, Raw done);
    template <typename T, typename Read>
    void request(const QString &method, const QString &path, const QJsonObject &body, QObject *context, Handler<T> done, Read read);

    void adopt(IManagementTransport *transport);

    IManagementTransport *m_transport = nullptr;
    QNetworkAccessManager *m_network = nullptr; // made on the first testTool
    bool m_watching = false;
    bool m_statusQueued = false;
};

} // namespace Aile::Ui
