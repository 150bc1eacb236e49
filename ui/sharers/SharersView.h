#pragma once

#include <QtWidgets/QWidget>

class QJsonArray;
class QLabel;
class QTableView;

namespace Aile::Ui {

class SharersModel;

/// The Sharers page: every upstream account the engine can dial, with whether its credential
/// could be read. Read-only until the engine offers an API to edit sharers.
class SharersView : public QWidget
{
    Q_OBJECT
public:
    explicit SharersView(QWidget *parent = nullptr);

    void setSharers(const QJsonArray &sharers);
    SharersModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }

private:
    SharersModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
};

} // namespace Aile::Ui
