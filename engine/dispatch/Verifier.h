#pragma once

#include <QtCore/QObject>
#include <QtCore/QJsonObject>

#include <functional>

namespace Aile {
struct EngineContext;
namespace Http {
class UpstreamCall;
}
}

namespace Aile::Dispatch {

/// Verification of sharers (docs/management-api.md, a sharer's test and probe): a probe is a cheap
/// authenticated call that says whether the credential answers; a model test sends one minimal
/// request of one model and, when it passes, marks that sharer × model tested (and restores a dead key).
class Verifier : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const QJsonObject &result)>;
    explicit Verifier(EngineContext &context, QObject *parent = nullptr);

    /// From the connection up, a probe must be answered within this (a hung upstream costs one
    /// connection for this long, never one per probe interval).
    static constexpr qint64 ProbeDeadlineMs = 30'000;
    /// From the connection up, a model test must be answered within this.
    static constexpr qint64 TestDeadlineMs = 60'000;

    void probe(const QString &handle, Done done);
    void testModel(const QString &handle, const QString &model, Done done);
    /// Probes every sharer now and then every intervalMs (never more often than once a minute).
    void startProbing(qint64 intervalMs);

Q_SIGNALS:
    /// A sharer's standing changed (tested list, dead key): listings and the GUI refresh.
    void sharerChanged(const QString &handle);

private:
    void probeAll();
    /// Aborts the call unless it ends within ms of connecting; then onTimeout runs (once).
    void bound(Http::UpstreamCall *call, qint64 ms, std::function<void()> onTimeout);
    EngineContext &m_ctx;
    qint64 m_intervalMs = 0;
};

} // namespace Aile::Dispatch
