#pragma once

#include "KeyEditDialog.h"
#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace Aile::Ui {

class ManagementClient;
class RouteTargetsTable;

/// One named route of a key (docs/keys.md, "Named routes": route order, first-token limits, daily budgets, a route
/// across providers): its name, its targets in the order they are tried, the order, Prefer, a
/// first-token limit, the phase limits and a daily budget. Read with GET /keys/{id}; Save sends the
/// key's whole route list with this route replaced or appended (PUT /keys/{id} {"routes": […]}),
/// and the engine judges it: a refusal shows the engine's own message and the dialog stays open.
/// "Create a route across providers…" fills the targets from GET /keys/route-template. Every call
/// is asynchronous.
class RouteDialog : public KeyEditDialog
{
    Q_OBJECT
public:
    enum class Order { InOrder, Cheapest, RoundRobin };

    RouteDialog(ManagementClient *client, QWidget *parent = nullptr);

    /// The sharers as EngineStatus carries them: the model choices and the pins offer them.
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// Reads the key (GET /keys/{id}) and the route named routeName (a new route when empty);
    /// loaded() follows.
    void load(const QString &keyId, const QString &routeName = {});
    /// Sends the key's routes with this one in place; saved() and the dialog closes, or the
    /// engine's message shows and saveFailed() follows.
    void save() override;
    /// Asks for a model id, then fills the targets from the route template.
    void askAcrossProviders();
    /// Fills the targets with one per provider that lists model (GET /keys/route-template);
    /// templateFilled() follows, and the note says what was left out and why.
    void fillAcrossProviders(const QString &model);

    /// The route the fields describe (what Save puts in the list).
    Api::RouteValue route() const;
    void setRoute(const Api::RouteValue &route);
    RouteTargetsTable *targets() const { return m_targets; }
    /// The name the route was saved under (empty for a new one).
    QString originalName() const { return m_originalName; }
    QString templateNote() const;

Q_SIGNALS:
    void saved(const QString &keyId, const QString &routeName);
    void templateFilled();

private:
    void updateButtons();
    void updateFirstTokenLimit();
    void askCatalog();
    void updateModelChoices();
    void showTemplate(const QString &model, const QJsonObject &answer);

    QString m_originalName;
    QList<Api::RouteValue> m_routes; // the key's routes as read: Save replaces this one among them
    Api::RouteValue m_loaded;        // the route as read: a first-token limit set in milliseconds is kept while its seconds are unchanged
    QList<Api::SharerStatus> m_sharers;
    QJsonArray m_catalogModels;

    QLineEdit *m_name;
    RouteTargetsTable *m_targets;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_up;
    QPushButton *m_down;
    QPushButton *m_across;
    QLabel *m_templateNote;
    QComboBox *m_order;
    QComboBox *m_prefer;
    QSpinBox *m_ttft;
    QCheckBox *m_phaseLimits;
    QDoubleSpinBox *m_budget;
    QLabel *m_spent;
};

} // namespace Aile::Ui
