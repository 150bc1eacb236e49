#pragma once

#include "TraceFilter.h"

#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtWidgets/QWidget>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTimer;

namespace Aile::Ui {

/// The row of filters above the traces table: key, model, status, sharer and free text.
/// Typing is debounced so that a query does not run on every keystroke.
class TraceFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit TraceFilterBar(QWidget *parent = nullptr);

    TraceFilter filter() const;
    /// Keys and sharers as EngineStatus carries them, to fill the pickers.
    void setKeys(const QList<Api::KeyInfo> &keys);
    void setSharers(const QList<Api::SharerStatus> &sharers);
    void clear();
    void focusText();

Q_SIGNALS:
    void filterChanged(const Aile::Ui::TraceFilter &filter);

private:
    void emitChanged();
    static void refill(QComboBox *box, const QString &anyText, const QList<QPair<QString, QString>> &items);

    QComboBox *m_key;
    QComboBox *m_model;
    QComboBox *m_status;
    QComboBox *m_sharer;
    QLineEdit *m_text;
    QPushButton *m_clear;
    QTimer *m_debounce;
};

} // namespace Aile::Ui
