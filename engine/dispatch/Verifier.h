#pragma once

#include <QtCore/QObject>
#include <QtCore/QJsonObject>

#include <functional>
#include <memory>
#include <vector>

namespace Aile {
class Clock;
struct EngineSettings;
namespace Http {
class UpstreamCall;
class UpstreamClient;
struct UpstreamCallbacks;
struct UpstreamRequest;
} // namespace Http
namespace Health {
class HealthBook;
}
namespace State {
struct SharerBook;
}
namespace Store {
class Store;
}
} // namespace Aile

namespace Aile::Dispatch {

/// Verification of sharers (docs/management-api.md, a sharer's test and probe): a probe is a cheap
/// authenticated call that says whether the credential answers; a model test sends one minimal
/// request of one model and, when it passes, marks that sharer × model tested (and restores a dead key).
class Verifier : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const QJsonObject &result)>;
    /// It dials the book's sharers with their credentials through upstream, records what it learns
    /// in health (null: nowhere) and saves a sharer's tested models to store (null: kept in memory).
    Verifier(Clock &clock, const EngineSettings &settings, State::SharerBook &sharers, Http::UpstreamClient &upstream, Health::HealthBook *health,
             Store::Store *store, QObject *parent = nullptr);
    ~Verifier() override;

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
    struct Check;
    void probeAll();
    /// Sends request; callbacks hear it. The call is aborted unless it ends within ms of
    /// connecting; then onTimeout runs instead of finished or failed. Each ends the check.
    void launch(const Http::UpstreamRequest &request, Http::UpstreamCallbacks callbacks, qint64 ms, std::function<void()> onTimeout);
    /// Deletes a check and its call (from inside the call's own event too).
    void end(Check *check);
    Clock &m_clock;
    const EngineSettings &m_settings;
    State::SharerBook &m_book;
    Http::UpstreamClient &m_upstream;
    Health::HealthBook *m_health;
    Store::Store *m_store;
    qint64 m_intervalMs = 0;
    std::vector<std::unique_ptr<Check>> m_checks; // in flight
};

} // namespace Aile::Dispatch
